import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Kv } from '../interface.js';
import { describeConsumeAll } from './consume-all-conformance.js';

/** Tuning for slow backends; the defaults keep the whole suite around a second. */
export interface KvConformanceOptions {
  /** The short TTL / window used by expiry tests, ms (default 100). */
  ttlMs?: number;
  /** How long to wait for a published message, ms (default 1000). */
  deliveryTimeoutMs?: number;
}

/**
 * The behaviour every {@link Kv} backend must have. Registers a vitest `describe(name)` block;
 * `create` is called before each test and must return an empty, isolated Kv (e.g. a fresh key
 * prefix), which the suite closes after the test.
 */
export function runKvConformance(name: string, create: () => Promise<Kv>, options: KvConformanceOptions = {}): void {
  const ttlMs = options.ttlMs ?? 100;
  const deliveryTimeoutMs = options.deliveryTimeoutMs ?? 1000;

  describe(name, () => {
    let kv: Kv;
    beforeEach(async () => {
      kv = await create();
    });
    afterEach(async () => {
      await kv.close();
    });

    describe('values', () => {
      it('gets, sets, overwrites and deletes', async () => {
        expect(await kv.get('a')).toBeNull();
        await kv.set('a', '1');
        expect(await kv.get('a')).toBe('1');
        await kv.set('a', '2');
        expect(await kv.get('a')).toBe('2');
        expect(await kv.delete('a')).toBe(true);
        expect(await kv.delete('a')).toBe(false);
        expect(await kv.get('a')).toBeNull();
      });

      it('keeps values verbatim, including empty and unicode strings', async () => {
        await kv.set('empty', '');
        await kv.set('text', 'héllo 👋\n{"a":1}');
        expect(await kv.get('empty')).toBe('');
        expect(await kv.get('text')).toBe('héllo 👋\n{"a":1}');
      });

      it('expires a value after its ttl and reports ttl codes', async () => {
        expect(await kv.ttl('missing')).toBe(-2);
        await kv.set('forever', 'x');
        expect(await kv.ttl('forever')).toBe(-1);
        await kv.set('short', 'x', { ttlMs });
        const remaining = await kv.ttl('short');
        expect(remaining).toBeGreaterThan(0);
        expect(remaining).toBeLessThanOrEqual(ttlMs);
        expect(await kv.get('short')).toBe('x');
        await sleep(ttlMs + 50);
        expect(await kv.get('short')).toBeNull();
        expect(await kv.ttl('short')).toBe(-2);
        expect(await kv.delete('short')).toBe(false);
      });

      it('clears the expiry when a value is set again without ttl', async () => {
        await kv.set('a', '1', { ttlMs });
        await kv.set('a', '2');
        expect(await kv.ttl('a')).toBe(-1);
        await sleep(ttlMs + 50);
        expect(await kv.get('a')).toBe('2');
      });

      it('rejects a non-positive ttl', async () => {
        await expect(kv.set('a', '1', { ttlMs: 0 })).rejects.toThrow(RangeError);
        await expect(kv.set('a', '1', { ttlMs: -5 })).rejects.toThrow(RangeError);
      });
    });

    describe('setIfAbsent', () => {
      it('lets exactly one of 20 concurrent callers win', async () => {
        const results = await Promise.all(Array.from({ length: 20 }, (_, i) => kv.setIfAbsent('lock', `owner-${i}`)));
        expect(results.filter(Boolean)).toHaveLength(1);
        expect(await kv.get('lock')).toBe(`owner-${results.indexOf(true)}`);
      });

      it('does not overwrite, and succeeds again once the value expired', async () => {
        expect(await kv.setIfAbsent('lock', 'a', { ttlMs })).toBe(true);
        expect(await kv.setIfAbsent('lock', 'b', { ttlMs })).toBe(false);
        expect(await kv.get('lock')).toBe('a');
        expect(await kv.ttl('lock')).toBeGreaterThan(0);
        await sleep(ttlMs + 50);
        expect(await kv.setIfAbsent('lock', 'c')).toBe(true);
        expect(await kv.get('lock')).toBe('c');
      });
    });

    describe('take', () => {
      it('reads and deletes a value once; of concurrent takers exactly one gets it', async () => {
        expect(await kv.take('token')).toBeNull();
        await kv.set('token', 'secret', { ttlMs: 10_000 });
        const results = await Promise.all(Array.from({ length: 20 }, () => kv.take('token')));
        expect(results.filter((value) => value === 'secret')).toHaveLength(1);
        expect(results.filter((value) => value === null)).toHaveLength(19);
        expect(await kv.get('token')).toBeNull();
        expect(await kv.ttl('token')).toBe(-2);
      });

      it('finds nothing once the value expired', async () => {
        await kv.set('token', 'secret', { ttlMs });
        await sleep(ttlMs + 50);
        expect(await kv.take('token')).toBeNull();
      });
    });

    describe('increment', () => {
      it('starts at 0, adds `by` and can go negative', async () => {
        expect(await kv.increment('n')).toBe(1);
        expect(await kv.increment('n', 5)).toBe(6);
        expect(await kv.increment('n', -10)).toBe(-4);
        expect(await kv.get('n')).toBe('-4');
        await kv.set('m', '41');
        expect(await kv.increment('m')).toBe(42);
      });

      it('is atomic: 100 concurrent increments add up to 100', async () => {
        const values = await Promise.all(Array.from({ length: 100 }, () => kv.increment('n')));
        expect(await kv.get('n')).toBe('100');
        expect(new Set(values).size).toBe(100);
      });

      it('sets the ttl only when it creates the counter', async () => {
        await kv.increment('n', 1, { ttlMs });
        const first = await kv.ttl('n');
        expect(first).toBeGreaterThan(0);
        await sleep(20);
        await kv.increment('n', 1, { ttlMs: ttlMs * 100 });
        expect(await kv.ttl('n')).toBeLessThanOrEqual(first);
        await sleep(ttlMs + 50);
        expect(await kv.get('n')).toBeNull();

        await kv.increment('plain');
        await kv.increment('plain', 1, { ttlMs });
        expect(await kv.ttl('plain')).toBe(-1);
      });

      it('rejects a value that is not an integer', async () => {
        await kv.set('s', 'abc');
        await expect(kv.increment('s')).rejects.toThrow();
        expect(await kv.get('s')).toBe('abc');
      });
    });

    describe('consumeWindow', () => {
      it('admits exactly `limit` of a concurrent burst', async () => {
        const windowMs = 10_000;
        const results = await Promise.all(Array.from({ length: 300 }, () => kv.consumeWindow('rl', 1, 50, windowMs)));
        const admitted = results.filter((r) => r.admitted);
        expect(admitted).toHaveLength(50);
        expect(admitted.map((r) => r.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
        for (const r of results) {
          expect(r.resetMs).toBeGreaterThan(0);
          expect(r.resetMs).toBeLessThanOrEqual(windowMs);
          if (!r.admitted) expect(r.count).toBe(50);
        }
      });

      it('opens a new window after windowMs', async () => {
        expect(await kv.consumeWindow('rl', 1, 2, ttlMs)).toEqual({ admitted: true, count: 1, resetMs: ttlMs });
        expect((await kv.consumeWindow('rl', 1, 2, ttlMs)).admitted).toBe(true);
        const rejected = await kv.consumeWindow('rl', 1, 2, ttlMs);
        expect(rejected.admitted).toBe(false);
        expect(rejected.count).toBe(2);
        await sleep(rejected.resetMs + 30);
        expect(await kv.consumeWindow('rl', 1, 2, ttlMs)).toEqual({ admitted: true, count: 1, resetMs: ttlMs });
      });

      it('counts cost, rejects what would exceed the limit, and still admits what fits', async () => {
        expect((await kv.consumeWindow('tpm', 4, 10, 10_000)).count).toBe(4);
        expect((await kv.consumeWindow('tpm', 4, 10, 10_000)).count).toBe(8);
        expect(await kv.consumeWindow('tpm', 4, 10, 10_000)).toMatchObject({ admitted: false, count: 8 });
        expect(await kv.consumeWindow('tpm', 2, 10, 10_000)).toMatchObject({ admitted: true, count: 10 });
      });

      it('never admits a cost above the limit, and peeks with cost 0', async () => {
        expect(await kv.consumeWindow('big', 11, 10, 1000)).toEqual({ admitted: false, count: 0, resetMs: 1000 });
        expect(await kv.consumeWindow('big', 0, 10, 1000)).toEqual({ admitted: true, count: 0, resetMs: 1000 });
        expect(await kv.ttl('big')).toBe(-2);
        await kv.consumeWindow('big', 3, 10, 1000);
        expect(await kv.consumeWindow('big', 0, 10, 1000)).toMatchObject({ admitted: true, count: 3 });
      });

      it('rejects invalid arguments', async () => {
        await expect(kv.consumeWindow('rl', -1, 10, 1000)).rejects.toThrow(RangeError);
        await expect(kv.consumeWindow('rl', 1.5, 10, 1000)).rejects.toThrow(RangeError);
        await expect(kv.consumeWindow('rl', 1, 10, 0)).rejects.toThrow(RangeError);
      });
    });

    describeConsumeAll(() => kv, ttlMs);

    describe('streams', () => {
      it('appends with increasing <ms>-<seq> ids and reads in order', async () => {
        const ids: string[] = [];
        for (let i = 0; i < 50; i += 1) ids.push(await kv.append('q', { n: String(i) }));
        for (const id of ids) expect(id).toMatch(/^\d+-\d+$/);
        for (let i = 1; i < ids.length; i += 1) expect(compareIds(ids[i - 1]!, ids[i]!)).toBeLessThan(0);

        const all = await kv.read('q', '0', 100);
        expect(all.map((e) => e.id)).toEqual(ids);
        expect(all.map((e) => e.fields['n'])).toEqual(ids.map((_, i) => String(i)));
      });

      it('reads after an id (exclusive) and at most `count` entries', async () => {
        const a = await kv.append('q', { v: 'a', extra: 'x' });
        const b = await kv.append('q', { v: 'b' });
        const c = await kv.append('q', { v: 'c' });
        expect(await kv.read('q', '0', 10)).toEqual([
          { id: a, fields: { v: 'a', extra: 'x' } },
          { id: b, fields: { v: 'b' } },
          { id: c, fields: { v: 'c' } },
        ]);
        expect((await kv.read('q', a, 10)).map((e) => e.id)).toEqual([b, c]);
        expect((await kv.read('q', a, 1)).map((e) => e.id)).toEqual([b]);
        expect(await kv.read('q', c, 10)).toEqual([]);
        expect(await kv.read('q', '0', 0)).toEqual([]);
        expect(await kv.read('missing', '0', 10)).toEqual([]);
      });

      it('acks (deletes) processed entries', async () => {
        const a = await kv.append('q', { v: 'a' });
        const b = await kv.append('q', { v: 'b' });
        const c = await kv.append('q', { v: 'c' });
        await kv.ack('q', [a, b]);
        await kv.ack('q', []);
        expect((await kv.read('q', '0', 10)).map((e) => e.id)).toEqual([c]);
        expect(await kv.streamLength('q')).toBe(1);
        expect(await kv.streamLength('missing')).toBe(0);
        const d = await kv.append('q', { v: 'd' });
        expect(await kv.streamLength('q')).toBe(2);
        expect(compareIds(c, d)).toBeLessThan(0);
        await kv.ack('missing', [a]);
      });

      it('shares the keyspace with values', async () => {
        await kv.append('q', { v: 'a' });
        await expect(kv.get('q')).rejects.toThrow(/WRONGTYPE/);
        await expect(kv.increment('q')).rejects.toThrow(/WRONGTYPE/);
        await kv.set('s', 'x');
        await expect(kv.append('s', { v: 'a' })).rejects.toThrow(/WRONGTYPE/);
        await expect(kv.streamLength('s')).rejects.toThrow(/WRONGTYPE/);
        expect(await kv.delete('q')).toBe(true);
        expect(await kv.read('q', '0', 10)).toEqual([]);
      });

      it('rejects an empty entry and a malformed id', async () => {
        await expect(kv.append('q', {})).rejects.toThrow(RangeError);
        await expect(kv.read('q', 'nope', 10)).rejects.toThrow(RangeError);
      });
    });

    describe('pub/sub', () => {
      it('delivers to every subscriber of the channel until it unsubscribes', async () => {
        const first: string[] = [];
        const second: string[] = [];
        const other: string[] = [];
        const stopFirst = await kv.subscribe('ch', (m) => first.push(m));
        await kv.subscribe('ch', (m) => second.push(m));
        await kv.subscribe('other', (m) => other.push(m));

        await kv.publish('ch', 'one');
        await waitFor(() => first.length === 1 && second.length === 1, deliveryTimeoutMs);
        expect(first).toEqual(['one']);

        await stopFirst();
        await stopFirst();
        await kv.publish('ch', 'two');
        await waitFor(() => second.length === 2, deliveryTimeoutMs);
        await sleep(30);
        expect(first).toEqual(['one']);
        expect(second).toEqual(['one', 'two']);
        expect(other).toEqual([]);
      });

      it('keeps delivering after a callback throws', async () => {
        const seen: string[] = [];
        await kv.subscribe('ch', () => {
          throw new Error('bad subscriber');
        });
        await kv.subscribe('ch', (m) => seen.push(m));
        await kv.publish('ch', 'a');
        await kv.publish('ch', 'b');
        await waitFor(() => seen.length === 2, deliveryTimeoutMs);
        expect(seen).toEqual(['a', 'b']);
      });

      it('resubscribes a channel after its last subscriber left', async () => {
        const seen: string[] = [];
        const stop = await kv.subscribe('ch', () => {});
        await stop();
        await kv.subscribe('ch', (m) => seen.push(m));
        await kv.publish('ch', 'again');
        await waitFor(() => seen.length === 1, deliveryTimeoutMs);
      });

      it('publishes to a channel nobody listens to', async () => {
        await expect(kv.publish('nobody', 'x')).resolves.toBeUndefined();
      });
    });

    describe('lifecycle', () => {
      it('pings while open; after close, ping is false and calls reject', async () => {
        expect(await kv.ping()).toBe(true);
        await kv.close();
        await kv.close();
        expect(await kv.ping()).toBe(false);
        await expect(kv.get('a')).rejects.toThrow();
        await expect(kv.subscribe('ch', () => {})).rejects.toThrow();
      });
    });
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function waitFor(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await sleep(5);
  }
}

function compareIds(a: string, b: string): number {
  const [aMs = 0, aSeq = 0] = a.split('-').map(Number);
  const [bMs = 0, bSeq = 0] = b.split('-').map(Number);
  return aMs - bMs || aSeq - bSeq;
}
