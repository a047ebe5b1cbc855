import type { Kv } from '@svc/kv';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type BreakerSettings, type BreakerTransition, CircuitBreakers } from '../breaker.js';
import { KeyCooldowns } from '../key-cooldown.js';

/** How the suite gets its stores. */
export interface BreakerConformanceOptions {
  /**
   * Two handles on ONE store, standing for two gateway instances (e.g. two Redis connections on
   * one key prefix). Default: the Kv of `create` used by both instances.
   */
  createPair?: () => Promise<[Kv, Kv]>;
}

const KEY = 'openai/gpt-4o-mini';
const START = 1_700_000_000_000;

/**
 * The behaviour {@link CircuitBreakers} and {@link KeyCooldowns} must have over every Kv backend.
 * Registers a vitest `describe(name)`; `create` is called before each test and must return an
 * empty, isolated Kv, which the suite closes afterwards. Time is a fake clock, so the suite is
 * fast and does not depend on the backend's latency.
 */
export function runBreakerConformance(name: string, create: () => Promise<Kv>, options: BreakerConformanceOptions = {}): void {
  describe(name, () => {
    let clock = START;
    const now = (): number => clock;
    const open: Kv[] = [];
    let kv: Kv;

    const breakers = (kvOf: Kv, settings: Partial<BreakerSettings> = {}): CircuitBreakers =>
      new CircuitBreakers({ kv: kvOf, now, cooldownBaseMs: 1000, cooldownMaxMs: 3000, ...settings });
    const pair = async (): Promise<[Kv, Kv]> => {
      if (options.createPair === undefined) return [kv, kv];
      const both = await options.createPair();
      open.push(...both);
      return both;
    };
    const fail = async (b: CircuitBreakers, times: number, key = KEY): Promise<void> => {
      for (let i = 0; i < times; i++) await b.record(key, 'failure');
    };

    beforeEach(async () => {
      clock = START;
      kv = await create();
      open.push(kv);
    });
    afterEach(async () => {
      await Promise.all([...new Set(open.splice(0))].map((one) => one.close()));
    });

    describe('circuit breakers', () => {
      it('open after the consecutive-failure threshold and refuse with retryAfterMs', async () => {
        const b = breakers(kv, { consecutiveFailures: 3 });
        await fail(b, 2);
        expect(await b.allow(KEY)).toEqual({ allowed: true, probe: false });
        await fail(b, 1);
        expect(await b.allow(KEY)).toEqual({ allowed: false, probe: false, retryAfterMs: 1000 });
        clock += 400;
        expect(await b.allow(KEY)).toEqual({ allowed: false, probe: false, retryAfterMs: 600 });
        expect(await b.status(KEY)).toMatchObject({ state: 'open', openedAt: START, nextProbeAt: START + 1000, consecutiveFailures: 3 });
      });

      it('report a known open breaker synchronously for routing, until its cooldown ends', async () => {
        const b = breakers(kv, { consecutiveFailures: 2 });
        expect(b.knownOpen(KEY)).toBe(false);
        await fail(b, 2);
        expect(b.knownOpen(KEY)).toBe(true);
        expect(b.knownOpen('other/model')).toBe(false);
        clock += 1000;
        expect(b.knownOpen(KEY)).toBe(false);
      });

      it('open on the error ratio once the window holds the minimum of requests', async () => {
        const b = breakers(kv, { consecutiveFailures: 100, minimumRequests: 10, errorRatio: 0.5 });
        // s f s f ... : 9 outcomes, 5 failures; the ratio is above 0.5 but the minimum is not met.
        for (let i = 0; i < 9; i++) await b.record(KEY, i % 2 === 0 ? 'failure' : 'success');
        expect((await b.status(KEY)).state).toBe('closed');
        await b.record(KEY, 'failure');
        expect(await b.status(KEY)).toMatchObject({ state: 'open', failures: 6, successes: 4 });
        expect((await b.allow(KEY)).allowed).toBe(false);
      });

      it('stay closed below both thresholds; a success ends a failure streak', async () => {
        const b = breakers(kv, { consecutiveFailures: 3, minimumRequests: 10, errorRatio: 0.5 });
        for (let i = 0; i < 30; i++) await b.record(KEY, i % 3 === 2 ? 'success' : i % 2 === 0 ? 'failure' : 'success');
        await fail(b, 2);
        await b.record(KEY, 'success');
        await fail(b, 2);
        const status = await b.status(KEY);
        expect(status).toMatchObject({ state: 'closed', consecutiveFailures: 2 });
        expect(status.failures / (status.failures + status.successes)).toBeLessThan(0.5);
        expect(await b.allow(KEY)).toEqual({ allowed: true, probe: false });
      });

      it('forget failures that left the rolling window', async () => {
        const b = breakers(kv, { consecutiveFailures: 100, minimumRequests: 4, errorRatio: 0.5, windowMs: 10_000 });
        await fail(b, 3);
        clock += 25_000;
        await b.record(KEY, 'success');
        await b.record(KEY, 'success');
        await b.record(KEY, 'success');
        await fail(b, 1);
        expect(await b.status(KEY)).toMatchObject({ state: 'closed', failures: 1, successes: 3 });
      });

      it('admit exactly one probe among 20 concurrent callers once the cooldown is over', async () => {
        const b = breakers(kv, { consecutiveFailures: 1 });
        await fail(b, 1);
        clock += 1000;
        const admissions = await Promise.all(Array.from({ length: 20 }, () => b.allow(KEY)));
        expect(admissions.filter((a) => a.probe && a.allowed)).toHaveLength(1);
        const refused = admissions.filter((a) => !a.allowed);
        expect(refused).toHaveLength(19);
        for (const one of refused) expect(one.retryAfterMs).toBeGreaterThan(0);
        expect((await b.status(KEY)).state).toBe('half_open');
      });

      it('admit exactly one probe across two instances sharing the store', async () => {
        const [kvA, kvB] = await pair();
        const a = breakers(kvA, { consecutiveFailures: 1 });
        const b = breakers(kvB, { consecutiveFailures: 1 });
        await fail(a, 1);
        clock += 1000;
        const admissions = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? a : b).allow(KEY)));
        expect(admissions.filter((one) => one.probe)).toHaveLength(1);
        expect(admissions.filter((one) => one.allowed)).toHaveLength(1);
      });

      it('close on a probe success and start counting afresh', async () => {
        const changes: BreakerTransition[] = [];
        const b = breakers(kv, { consecutiveFailures: 2, onTransition: (t) => changes.push(t) });
        await fail(b, 2);
        clock += 1000;
        expect(await b.allow(KEY)).toEqual({ allowed: true, probe: true });
        await b.record(KEY, 'success', { probe: true });
        expect(await b.status(KEY)).toEqual({
          key: KEY,
          state: 'closed',
          failures: 0,
          successes: 0,
          consecutiveFailures: 0,
          openedAt: null,
          nextProbeAt: null,
          cooldownMs: null,
        });
        expect(await b.allow(KEY)).toEqual({ allowed: true, probe: false });
        // One failure is not a streak of two: the old streak was cleared.
        await fail(b, 1);
        expect((await b.status(KEY)).state).toBe('closed');
        expect(changes.map((t) => `${t.from}>${t.to}:${t.reason}`)).toEqual(['closed>open:consecutive_failures', 'half_open>closed:probe_succeeded']);
      });

      it('reopen on a probe failure with the cooldown doubled, up to the cap', async () => {
        const b = breakers(kv, { consecutiveFailures: 1 });
        await fail(b, 1);
        const cooldowns: number[] = [(await b.status(KEY)).cooldownMs ?? -1];
        for (let i = 0; i < 3; i++) {
          clock += cooldowns.at(-1) ?? 0;
          expect(await b.allow(KEY)).toMatchObject({ allowed: true, probe: true });
          await b.record(KEY, 'failure', { probe: true });
          const status = await b.status(KEY);
          expect(status).toMatchObject({ state: 'open', openedAt: clock });
          cooldowns.push(status.cooldownMs ?? -1);
          expect(await b.allow(KEY)).toEqual({ allowed: false, probe: false, retryAfterMs: status.cooldownMs });
        }
        expect(cooldowns).toEqual([1000, 2000, 3000, 3000]);
      });

      it('wait longer when a breaker relapses soon after closing', async () => {
        const b = breakers(kv, { consecutiveFailures: 1 });
        await fail(b, 1);
        clock += 1000;
        await b.allow(KEY);
        await b.record(KEY, 'failure', { probe: true });
        clock += 2000;
        await b.allow(KEY);
        await b.record(KEY, 'success', { probe: true });
        await fail(b, 1);
        expect((await b.status(KEY)).cooldownMs).toBe(3000);
      });

      it('free a probe slot that was released without an outcome', async () => {
        const b = breakers(kv, { consecutiveFailures: 1, cacheMs: 0 });
        await fail(b, 1);
        clock += 1000;
        expect((await b.allow(KEY)).probe).toBe(true);
        expect((await b.allow(KEY)).allowed).toBe(false);
        await b.releaseProbe(KEY);
        expect((await b.allow(KEY)).probe).toBe(true);
      });

      it('reset one breaker or all of them, idempotently', async () => {
        const b = breakers(kv, { consecutiveFailures: 1 });
        await fail(b, 1, 'a/x');
        await fail(b, 1, 'b/y');
        await b.reset('a/x');
        await b.reset('a/x');
        expect((await b.status('a/x')).state).toBe('closed');
        expect((await b.allow('a/x')).allowed).toBe(true);
        expect((await b.status('b/y')).state).toBe('open');
        await b.reset();
        await b.reset();
        expect((await b.list()).map((s) => s.state)).toEqual(['closed', 'closed']);
        expect((await b.allow('b/y')).allowed).toBe(true);
        // The backoff level is cleared too: the next open starts at the base cooldown.
        await fail(b, 1, 'b/y');
        expect((await b.status('b/y')).cooldownMs).toBe(1000);
      });

      it('list every breaker recorded by any instance, with its fields', async () => {
        const [kvA, kvB] = await pair();
        const a = breakers(kvA, { consecutiveFailures: 2 });
        const b = breakers(kvB, { consecutiveFailures: 2 });
        await a.record('openai/gpt-4o', 'success');
        await fail(b, 2, 'anthropic/claude-sonnet-4');
        clock += 300;
        const list = await a.list();
        expect(list).toEqual([
          {
            key: 'anthropic/claude-sonnet-4',
            state: 'open',
            failures: 2,
            successes: 0,
            consecutiveFailures: 2,
            openedAt: START,
            nextProbeAt: START + 1000,
            cooldownMs: 1000,
          },
          {
            key: 'openai/gpt-4o',
            state: 'closed',
            failures: 0,
            successes: 1,
            consecutiveFailures: 0,
            openedAt: null,
            nextProbeAt: null,
            cooldownMs: null,
          },
        ]);
        expect(await b.list()).toEqual(list);
      });

      it('show another instance its open breaker within cacheMs', async () => {
        const [kvA, kvB] = await pair();
        const a = breakers(kvA, { consecutiveFailures: 1, cacheMs: 250 });
        const b = breakers(kvB, { consecutiveFailures: 1, cacheMs: 250 });
        expect((await b.allow(KEY)).allowed).toBe(true);
        await fail(a, 1);
        // b trusts its cached "closed" for at most cacheMs ...
        clock += 249;
        expect((await b.allow(KEY)).allowed).toBe(true);
        // ... and then reads the shared state.
        clock += 1;
        expect(await b.allow(KEY)).toEqual({ allowed: false, probe: false, retryAfterMs: 750 });
        // A reset on one instance closes the breaker on the other within the same bound.
        await a.reset(KEY);
        expect((await b.allow(KEY)).allowed).toBe(false);
        clock += 250;
        expect((await b.allow(KEY)).allowed).toBe(true);
      });
    });

    describe('key cooldowns', () => {
      const cooldowns = (kvOf: Kv): KeyCooldowns => new KeyCooldowns({ kv: kvOf, now, threshold: 2, cooldownMs: 5000, cacheMs: 0 });

      it('pass over a key after repeated failures, on every instance', async () => {
        const [kvA, kvB] = await pair();
        const a = cooldowns(kvA);
        const b = cooldowns(kvB);
        expect(await a.failure('openai', 1)).toBe(false);
        expect(await b.failure('openai', 1)).toBe(true);
        for (let i = 0; i < 3; i++) {
          expect((await a.order('openai', 3)).slice(0, 2).sort()).toEqual([0, 2]);
          expect((await b.order('openai', 3))[2]).toBe(1);
        }
        expect(await a.status('openai', 3)).toEqual([
          { index: 0, coolingUntil: null },
          { index: 1, coolingUntil: START + 5000 },
          { index: 2, coolingUntil: null },
        ]);
        clock += 5000;
        expect((await b.order('openai', 3)).sort()).toEqual([0, 1, 2]);
      });

      it('rotate the first key to try', async () => {
        const c = cooldowns(kv);
        const firsts = [];
        for (let i = 0; i < 3; i++) firsts.push((await c.order('groq', 3))[0]);
        expect(firsts.sort()).toEqual([0, 1, 2]);
      });

      it('cool a key at once for a named retry-after, and offer every key when all are cooling', async () => {
        const c = cooldowns(kv);
        await c.failure('gemini', 0, { retryAfterMs: 3000 });
        await c.failure('gemini', 1, { retryAfterMs: 1000 });
        expect(await c.order('gemini', 2)).toEqual([1, 0]);
        clock += 1000;
        expect(await c.order('gemini', 2)).toEqual([1, 0]);
      });

      it('order cooling keys last, the soonest to recover first, never leave them out', async () => {
        const c = cooldowns(kv);
        await c.failure('cohere', 1, { retryAfterMs: 4000 });
        await c.failure('cohere', 3, { retryAfterMs: 1000 });
        for (let i = 0; i < 4; i++) {
          const order = await c.order('cohere', 4);
          expect(order.slice(0, 2).sort()).toEqual([0, 2]);
          expect(order.slice(2)).toEqual([3, 1]);
        }
      });

      it('let a success end a failure run, and reset idempotently', async () => {
        const c = cooldowns(kv);
        await c.failure('mistral', 0);
        await c.success('mistral', 0);
        expect(await c.failure('mistral', 0)).toBe(false);
        expect(await c.failure('mistral', 0)).toBe(true);
        await c.reset('mistral', 0);
        await c.reset('mistral', 0);
        expect(await c.order('mistral', 1)).toEqual([0]);
      });
    });
  });
}
