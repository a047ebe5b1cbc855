import { describe, expect, it } from 'vitest';
import type { BucketStep, CounterStep, Kv } from '../interface.js';

const MINUTE = 60_000;

function bucket(key: string, cost: number, capacity: number, refillMs = MINUTE, force = false): BucketStep {
  return { kind: 'bucket', key, cost, capacity, refillMs, ...(force ? { force } : {}) };
}

function counter(key: string, cost: number, extra: Omit<CounterStep, 'kind' | 'key' | 'cost'> = {}): CounterStep {
  return { kind: 'counter', key, cost, ...extra };
}

/** The `consumeAll` part of the conformance suite; `kv` returns the Kv of the running test. */
export function describeConsumeAll(kv: () => Kv, ttlMs: number): void {
  describe('consumeAll', () => {
    it('takes from a bucket, refuses what would overdraw, and reports remaining, reset and retry', async () => {
      const first = await kv().consumeAll([bucket('rpm', 3, 5)]);
      expect(first.admitted).toBe(true);
      // 3 tokens at 12 s each.
      expect(first.steps[0]).toEqual({ kind: 'bucket', fits: true, remaining: 2, resetMs: 36_000, retryAfterMs: 0 });

      const refused = await kv().consumeAll([bucket('rpm', 3, 5)]);
      expect(refused.admitted).toBe(false);
      expect(refused.steps[0]).toMatchObject({ fits: false, remaining: 2 });
      // One token short: 12 s, less whatever refilled since (a slow run may take a second).
      expect(refused.steps[0]).toHaveProperty('retryAfterMs', expect.toSatisfy((ms: number) => ms > 11_000 && ms <= 12_000));

      expect((await kv().consumeAll([bucket('rpm', 2, 5)])).steps[0]).toMatchObject({ fits: true, remaining: 0 });
    });

    it('refills continuously and drops the key once full', async () => {
      const refillMs = ttlMs * 2;
      expect((await kv().consumeAll([bucket('b', 2, 2, refillMs)])).admitted).toBe(true);
      expect((await kv().consumeAll([bucket('b', 1, 2, refillMs)])).admitted).toBe(false);
      const ttl = await kv().ttl('b');
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(refillMs);
      await sleep(ttlMs + 30);
      expect((await kv().consumeAll([bucket('b', 1, 2, refillMs)])).admitted).toBe(true);
      await sleep(refillMs + 50);
      expect(await kv().ttl('b')).toBe(-2);
      expect((await kv().consumeAll([bucket('b', 2, 2, refillMs)])).admitted).toBe(true);
    });

    it('never admits a cost above capacity, goes into debt when forced, and caps refunds at capacity', async () => {
      const tooBig = await kv().consumeAll([bucket('tpm', 6, 5)]);
      expect(tooBig.steps[0]).toMatchObject({ fits: false, remaining: 5, resetMs: 0, retryAfterMs: -1 });

      const forced = await kv().consumeAll([bucket('tpm', 7, 5, MINUTE, true)]);
      expect(forced.steps[0]).toMatchObject({ fits: true, remaining: -2, retryAfterMs: 0 });
      const inDebt = await kv().consumeAll([bucket('tpm', 1, 5)]);
      // 3 tokens to repay (2 of debt and the one asked for), 12 s each.
      expect(inDebt.steps[0]).toHaveProperty('retryAfterMs', expect.toSatisfy((ms: number) => ms > 35_000 && ms <= 36_000));

      const refund = await kv().consumeAll([bucket('tpm', -100, 5)]);
      expect(refund.steps[0]).toMatchObject({ fits: true, remaining: 5, resetMs: 0 });
      expect(await kv().ttl('tpm')).toBe(-2);
    });

    it('takes only what leaves the reserve, and never what with its reserve exceeds the capacity', async () => {
      const background = (cost: number) => kv().consumeAll([{ kind: 'bucket', key: 'rpm', cost, capacity: 10, refillMs: MINUTE, reserve: 5 }]);
      for (let i = 0; i < 5; i++) expect((await background(1)).admitted).toBe(true);
      const kept = await background(1);
      // 5 tokens left, all reserved: one more needs a token's refill (6 s at 10 per minute).
      expect(kept.steps[0]).toMatchObject({ fits: false, remaining: 5, retryAfterMs: expect.toSatisfy((ms: number) => ms > 5_000 && ms <= 6_000) });
      // An interactive request still takes from the reserve.
      expect((await kv().consumeAll([bucket('rpm', 5, 10)])).steps[0]).toMatchObject({ fits: true, remaining: 0 });
      const never = await kv().consumeAll([{ kind: 'bucket', key: 'tpm', cost: 6, capacity: 10, refillMs: MINUTE, reserve: 5 }]);
      expect(never.steps[0]).toMatchObject({ fits: false, remaining: 10, retryAfterMs: -1 });
      await expect(kv().consumeAll([{ kind: 'bucket', key: 'x', cost: 1, capacity: 10, refillMs: MINUTE, reserve: -1 }])).rejects.toThrow(RangeError);
    });

    it('peeks with cost 0 without creating the bucket', async () => {
      expect(await kv().consumeAll([bucket('peek', 0, 5)])).toEqual({
        admitted: true,
        steps: [{ kind: 'bucket', fits: true, remaining: 5, resetMs: 0, retryAfterMs: 0 }],
      });
      expect(await kv().ttl('peek')).toBe(-2);
    });

    it('adds to counters within their limit; a cost <= 0 always fits', async () => {
      expect((await kv().consumeAll([counter('spend', 6, { limit: 10 })])).steps[0]).toEqual({
        kind: 'counter',
        fits: true,
        value: 6,
        missing: true,
      });
      const over = await kv().consumeAll([counter('spend', 5, { limit: 10 })]);
      expect(over).toEqual({ admitted: false, steps: [{ kind: 'counter', fits: false, value: 6, missing: false }] });
      expect((await kv().consumeAll([counter('spend', 4, { limit: 10 })])).steps[0]).toMatchObject({ value: 10 });
      expect((await kv().consumeAll([counter('spend', 3)])).steps[0]).toMatchObject({ fits: true, value: 13 });
      expect((await kv().consumeAll([counter('spend', -1, { limit: 10 })])).steps[0]).toMatchObject({ fits: true, value: 12 });
      expect(await kv().get('spend')).toBe('12');
      expect(await kv().increment('spend')).toBe(13);
    });

    it('creates, skips or refuses a missing counter as asked, with the ttl only on creation', async () => {
      const refused = await kv().consumeAll([bucket('rpm', 1, 5), counter('month', 1, { onMissing: 'refuse' })]);
      expect(refused.admitted).toBe(false);
      expect(refused.steps[1]).toEqual({ kind: 'counter', fits: false, value: 0, missing: true });
      expect(await kv().ttl('rpm')).toBe(-2);

      const skipped = await kv().consumeAll([bucket('rpm', 1, 5), counter('month', 1, { onMissing: 'skip' })]);
      expect(skipped.admitted).toBe(true);
      expect(skipped.steps[1]).toEqual({ kind: 'counter', fits: true, value: 0, missing: true });
      expect(await kv().get('month')).toBeNull();

      await kv().consumeAll([counter('month', 4, { ttlMs })]);
      expect(await kv().ttl('month')).toBeGreaterThan(0);
      await kv().consumeAll([counter('month', 1, { ttlMs: ttlMs * 100, onMissing: 'refuse' })]);
      expect(await kv().ttl('month')).toBeLessThanOrEqual(ttlMs);
      expect(await kv().get('month')).toBe('5');
      await sleep(ttlMs + 50);
      expect(await kv().get('month')).toBeNull();
    });

    it('is all or nothing: one refused step leaves every key as it was', async () => {
      await kv().consumeAll([counter('budget', 9)]);
      const result = await kv().consumeAll([
        bucket('rpm', 1, 5),
        bucket('tpm', 100, 1000),
        counter('budget', 2, { limit: 10 }),
        counter('reserved', 2),
      ]);
      expect(result.admitted).toBe(false);
      expect(result.steps).toEqual([
        { kind: 'bucket', fits: true, remaining: 5, resetMs: 0, retryAfterMs: 0 },
        { kind: 'bucket', fits: true, remaining: 1000, resetMs: 0, retryAfterMs: 0 },
        { kind: 'counter', fits: false, value: 9, missing: false },
        { kind: 'counter', fits: true, value: 0, missing: true },
      ]);
      expect(await kv().ttl('rpm')).toBe(-2);
      expect(await kv().ttl('tpm')).toBe(-2);
      expect(await kv().get('budget')).toBe('9');
      expect(await kv().get('reserved')).toBeNull();
    });

    it('is atomic: 200 concurrent calls admit exactly what the bucket holds', async () => {
      const results = await Promise.all(
        Array.from({ length: 200 }, () => kv().consumeAll([bucket('rpm', 1, 30), counter('n', 7)])),
      );
      expect(results.filter((r) => r.admitted)).toHaveLength(30);
      expect(await kv().get('n')).toBe('210');
      expect((await kv().consumeAll([bucket('rpm', 0, 30)])).steps[0]).toMatchObject({ remaining: 0 });
    });

    it('changes nothing when a value has the wrong type', async () => {
      await kv().set('text', 'abc');
      await kv().append('stream', { v: '1' });
      await expect(kv().consumeAll([counter('n', 1), counter('text', 1)])).rejects.toThrow(/not an integer/);
      await expect(kv().consumeAll([counter('n', 1), bucket('text', 1, 5)])).rejects.toThrow(/not a token bucket/);
      await expect(kv().consumeAll([counter('n', 1), bucket('stream', 1, 5)])).rejects.toThrow(/WRONGTYPE/);
      expect(await kv().get('n')).toBeNull();
    });

    it('rejects invalid steps before touching anything', async () => {
      await expect(kv().consumeAll([counter('a', 1), counter('a', 1)])).rejects.toThrow(RangeError);
      await expect(kv().consumeAll([bucket('a', 1, 0)])).rejects.toThrow(RangeError);
      await expect(kv().consumeAll([bucket('a', 1.5, 5)])).rejects.toThrow(RangeError);
      await expect(kv().consumeAll([bucket('a', 1, 5, 0)])).rejects.toThrow(RangeError);
      await expect(kv().consumeAll([counter('a', 1, { ttlMs: 0 })])).rejects.toThrow(RangeError);
      expect(await kv().get('a')).toBeNull();
      expect(await kv().consumeAll([])).toEqual({ admitted: true, steps: [] });
    });
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
