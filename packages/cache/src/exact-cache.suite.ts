import type { CachedAnswer, ChatRequest } from '@svc/core';
import type { Kv } from '@svc/kv';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ExactCache, type ExactCacheHit, type ExactCacheSettings } from './exact-cache.js';
import { answerChanges, answerOf, baseRequest, reverseKeys, sameAnswer } from './test-requests.js';

/**
 * Two handles on one shared store, as two gateway instances see it (for Redis: two
 * connections on one key prefix). `now` is the test's clock, for Kvs that can take one.
 */
export type OpenKvPair = (now: () => number) => Promise<[Kv, Kv]>;

const ORG = 'org_1';
const textOf = (hit: ExactCacheHit | undefined) => hit?.answer.result.choices[0]?.message.content;
const OTHER = 'org_2';
const START = 1_700_000_000_000;

/**
 * The exact cache's behaviour over a Kv backend: every backend must pass it. Registers a vitest
 * `describe(name)`; `open` is called in each test and must return an empty, isolated store.
 */
export function describeExactCache(name: string, open: OpenKvPair): void {
  describe(name, () => {
    const caches: ExactCache[] = [];
    const kvs: Kv[] = [];
    afterEach(async () => {
      await Promise.all(caches.splice(0).map((cache) => cache.close()));
      await Promise.all(kvs.splice(0).map((kv) => kv.close()));
    });

    /** Two instances on one store, sharing a controllable clock. */
    async function pair(settings: Partial<ExactCacheSettings> = {}) {
      let time = START;
      const now = () => time;
      const [kvA, kvB] = await open(now);
      kvs.push(kvA, kvB);
      const errors: unknown[] = [];
      const make = (kv: Kv, extra: Partial<ExactCacheSettings> = {}) => {
        const cache = new ExactCache({ kv, now, onError: (error) => errors.push(error), ...settings, ...extra });
        caches.push(cache);
        return cache;
      };
      return {
        a: make(kvA),
        b: make(kvB),
        make: (extra: Partial<ExactCacheSettings> = {}) => make(kvB, extra),
        errors,
        advance: (ms: number) => {
          time += ms;
        },
        answer: (text: string): CachedAnswer => answerOf(text, time),
      };
    }

    const keyOf = (cache: ExactCache, request: ChatRequest, orgId = ORG): string => {
      const key = cache.key(request, orgId);
      if (key === undefined) throw new Error('request is not cacheable');
      return key;
    };

    const request = (text: string): ChatRequest => ({
      model: 'svc/auto',
      messages: [{ role: 'user', content: text }],
      stream: false,
      n: 1,
      includeUsage: false,
    });

    it('misses, then serves a stored answer from L0 and counts it', async () => {
      const { a, answer, errors } = await pair();
      const key = keyOf(a, baseRequest());
      expect(await a.get(key)).toBeUndefined();
      await a.set(key, ORG, answer('Sunny.'));
      expect(await a.get(key)).toEqual({ answer: answer('Sunny.'), layer: 'l0' });
      expect(a.stats()).toMatchObject({ hits: { l0: 1, l1: 0 }, misses: { l0: 1, l1: 1 }, lookups: 2, hitRate: 0.5, sets: 1, errors: 0 });
      expect(a.stats().l0).toMatchObject({ entries: 1 });
      expect(a.stats().l0.bytes).toBeGreaterThan(JSON.stringify(answer('Sunny.')).length);
      expect(errors).toEqual([]);
    });

    it('misses on a change of any parameter that changes the answer, in both layers', async () => {
      const { a, b, answer } = await pair();
      await a.set(keyOf(a, baseRequest()), ORG, answer('base'));
      const hits: string[] = [];
      for (const [change, edit] of answerChanges) {
        const changed = baseRequest();
        edit(changed);
        const key = keyOf(a, changed);
        if ((await a.get(key)) !== undefined || (await b.get(key)) !== undefined) hits.push(change);
      }
      expect(hits).toEqual([]);
      expect(b.stats().hits).toEqual({ l0: 0, l1: 0 });
    });

    it('hits whatever the JSON key order, streaming, user, metadata and svc ids', async () => {
      const { a, b, answer } = await pair();
      await a.set(keyOf(a, baseRequest()), ORG, answer('base'));
      const missed: string[] = [];
      for (const [variant, edit] of [...sameAnswer, ['key order', () => {}] as const]) {
        const same = reverseKeys(baseRequest());
        edit(same);
        const key = keyOf(a, same);
        if ((await a.get(key))?.layer !== 'l0' || (await b.get(key)) === undefined) missed.push(variant);
      }
      expect(missed).toEqual([]);
    });

    it('keeps organisations apart', async () => {
      const { a, b, answer } = await pair();
      await a.set(keyOf(a, baseRequest(), ORG), ORG, answer('for org 1'));
      expect(await a.get(keyOf(a, baseRequest(), OTHER))).toBeUndefined();
      expect(await b.get(keyOf(b, baseRequest(), OTHER))).toBeUndefined();
      await a.set(keyOf(a, baseRequest(), OTHER), OTHER, answer('for org 2'));
      expect(textOf(await b.get(keyOf(b, baseRequest(), ORG)))).toBe('for org 1');
      expect(textOf(await b.get(keyOf(b, baseRequest(), OTHER)))).toBe('for org 2');
    });

    it('refuses to store a key under another organisation', async () => {
      const { a, answer, errors } = await pair();
      await a.set(keyOf(a, baseRequest(), ORG), OTHER, answer('misfiled'));
      expect(await a.get(keyOf(a, baseRequest(), ORG))).toBeUndefined();
      expect(errors).toHaveLength(1);
    });

    it('expires entries ttlMs after they were stored, in both layers', async () => {
      const { a, make, answer, advance } = await pair({ ttlMs: 60_000 });
      const key = keyOf(a, baseRequest());
      await a.set(key, ORG, answer('fresh'));
      advance(59_999);
      expect((await a.get(key))?.layer).toBe('l0');
      // Promoted from L1 for what is left of the lifetime only.
      const late = make();
      expect((await late.get(key))?.layer).toBe('l1');
      advance(2);
      expect(await a.get(key)).toBeUndefined();
      expect(await late.get(key)).toBeUndefined();
      expect(await make().get(key)).toBeUndefined();
    });

    it('bounds L0 by entry count; evicted entries are still served from L1', async () => {
      const { a, answer } = await pair({ maxEntries: 3 });
      const keys = ['one', 'two', 'three', 'four', 'five'].map((text) => keyOf(a, request(text)));
      for (const key of keys) await a.set(key, ORG, answer(key));
      expect(a.stats()).toMatchObject({ evictions: 2, l0: { entries: 3, maxEntries: 3 } });
      expect((await a.get(keys[4]!))?.layer).toBe('l0');
      expect((await a.get(keys[0]!))?.layer).toBe('l1');
      expect(a.stats().l0.entries).toBe(3);
    });

    it('bounds L0 by bytes; an answer larger than the bound stays in L1 only', async () => {
      const size = JSON.stringify(answerOf('x'.repeat(1000), START)).length + 100;
      const { a, answer } = await pair({ maxBytes: size * 2 + 50 });
      const keys = ['one', 'two', 'three'].map((text) => keyOf(a, request(text)));
      for (const key of keys) await a.set(key, ORG, answer('x'.repeat(1000)));
      expect(a.stats().l0.entries).toBe(2);
      expect(a.stats().l0.bytes).toBeLessThanOrEqual(size * 2 + 50);
      expect(a.stats().evictions).toBe(1);
      const huge = keyOf(a, request('huge'));
      await a.set(huge, ORG, answer('y'.repeat(size * 3)));
      expect((await a.get(huge))?.layer).toBe('l1');
      expect(a.stats().l0.entries).toBe(2);
    });

    it('shares L1 between instances: a hit there is promoted into L0', async () => {
      const { a, b, answer } = await pair();
      const key = keyOf(a, baseRequest());
      await a.set(key, ORG, answer('shared'));
      expect(await b.get(key)).toEqual({ answer: answer('shared'), layer: 'l1' });
      expect((await b.get(key))?.layer).toBe('l0');
      expect(b.stats()).toMatchObject({ hits: { l0: 1, l1: 1 }, misses: { l0: 1, l1: 0 }, l0: { entries: 1 } });
    });

    it('hands out frozen answers that later changes to the stored object do not reach', async () => {
      const { a, b, answer } = await pair();
      const key = keyOf(a, baseRequest());
      const original = answer('kept');
      await a.set(key, ORG, original);
      original.model = 'changed';
      for (const cache of [a, b]) {
        const hit = await cache.get(key);
        expect(hit?.answer.model).toBe('openai/gpt-4o-mini');
        expect(() => {
          hit!.answer.result.choices[0]!.message.content = 'tampered';
        }).toThrow(TypeError);
      }
    });

    describe('purge', () => {
      /** Both instances listening, with org 1 and org 2 entries in both L0s. */
      async function warm(settings: Partial<ExactCacheSettings> = {}) {
        // A long generation TTL: only the purge message can tell the other instance.
        const setup = await pair({ generationTtlMs: 3_600_000, ...settings });
        const { a, b, answer } = setup;
        await Promise.all([a.start(), b.start()]);
        const keys = { org1: keyOf(a, baseRequest(), ORG), org2: keyOf(a, baseRequest(), OTHER) };
        await a.set(keys.org1, ORG, answer('org 1'));
        await a.set(keys.org2, OTHER, answer('org 2'));
        expect((await b.get(keys.org1))?.layer).toBe('l1');
        expect((await b.get(keys.org2))?.layer).toBe('l1');
        return { ...setup, keys };
      }

      it('drops one organisation in this L0, in L1, and in the other instance L0 at once', async () => {
        const { a, b, make, keys } = await warm();
        expect(await a.purge(ORG)).toEqual({ orgId: ORG, l0Dropped: 1, shared: true });
        await vi.waitFor(() => expect(b.stats().l0.entries).toBe(1));
        expect(await a.get(keys.org1)).toBeUndefined();
        expect(await b.get(keys.org1)).toBeUndefined();
        expect(await make().get(keys.org1)).toBeUndefined();
        expect((await a.get(keys.org2))?.layer).toBe('l0');
        expect((await b.get(keys.org2))?.layer).toBe('l0');
      });

      it('drops every organisation', async () => {
        const { a, b, make, keys } = await warm();
        expect(await b.purge()).toEqual({ orgId: undefined, l0Dropped: 2, shared: true });
        await vi.waitFor(() => expect(a.stats().l0.entries).toBe(0));
        for (const cache of [a, b, make()]) {
          expect(await cache.get(keys.org1)).toBeUndefined();
          expect(await cache.get(keys.org2)).toBeUndefined();
        }
        expect(b.stats().purges).toBe(1);
      });

      it('is idempotent', async () => {
        const { a, b, keys } = await warm();
        await a.purge(ORG);
        expect(await a.purge(ORG)).toEqual({ orgId: ORG, l0Dropped: 0, shared: true });
        await vi.waitFor(() => expect(b.stats().l0.entries).toBe(1));
        expect(await b.get(keys.org1)).toBeUndefined();
      });

      it('keeps what is stored after the purge, also when its message arrives later', async () => {
        const { a, b, keys, answer } = await warm();
        await a.purge(ORG);
        await a.set(keys.org1, ORG, answer('after the purge'));
        // Both instances hear the purge message now, after the new entry was stored.
        await new Promise((resolve) => setTimeout(resolve, 100));
        expect((await a.get(keys.org1))?.layer).toBe('l0');
        expect(textOf(await b.get(keys.org1))).toBe('after the purge');
      });

      it('reaches an instance that did not listen within generationTtlMs', async () => {
        const { a, make, advance, answer } = await pair({ generationTtlMs: 1000 });
        const key = keyOf(a, baseRequest());
        await a.set(key, ORG, answer('before'));
        const deaf = make();
        expect((await deaf.get(key))?.layer).toBe('l1');
        await a.purge(ORG);
        advance(1001);
        expect(await deaf.get(key)).toBeUndefined();
      });

      it('stops hearing purges after close()', async () => {
        const { a, b } = await warm();
        await b.close();
        await b.close();
        await a.purge(ORG);
        await new Promise((resolve) => setTimeout(resolve, 100));
        expect(b.stats().l0.entries).toBe(2);
      });
    });

    it('turns Kv failures into misses reported to onError; set and purge still resolve', async () => {
      const { a, make, answer, errors, advance } = await pair();
      const key = keyOf(a, baseRequest());
      await a.set(key, ORG, answer('before the outage'));
      const cold = make({ kvTimeoutMs: 1000 });
      await Promise.all(kvs.map((kv) => kv.close()));
      // What this instance holds in L0 keeps serving while the Kv is down, also once the
      // generations it read are due for a refresh.
      expect((await a.get(key))?.layer).toBe('l0');
      advance(5000);
      expect((await a.get(key))?.layer).toBe('l0');
      expect(await cold.get(key)).toBeUndefined();
      await expect(cold.set(key, ORG, answer('during'))).resolves.toBeUndefined();
      expect(await cold.purge(ORG)).toEqual({ orgId: ORG, l0Dropped: 0, shared: false });
      await cold.start();
      expect(errors.length).toBeGreaterThanOrEqual(3);
      expect(cold.stats()).toMatchObject({ hits: { l0: 0, l1: 0 }, misses: { l1: 1 } });
      expect(a.stats().errors + cold.stats().errors).toBe(errors.length);
    });
  });
}
