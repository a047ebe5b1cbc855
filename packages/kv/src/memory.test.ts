import { describe, expect, it } from 'vitest';
import { createMemoryKv } from './memory.js';

function clock(start = 1_700_000_000_000): { now: () => number; advance: (ms: number) => void } {
  let t = start;
  return {
    now: () => t,
    advance: (ms) => {
      t += ms;
    },
  };
}

describe('memory kv with an injected clock', () => {
  it('expires exactly at the ttl', async () => {
    const c = clock();
    const kv = createMemoryKv({ now: c.now });
    await kv.set('a', '1', { ttlMs: 1000 });
    c.advance(999);
    expect(await kv.ttl('a')).toBe(1);
    expect(await kv.get('a')).toBe('1');
    c.advance(1);
    expect(await kv.get('a')).toBeNull();
    await kv.close();
  });

  it('reports the exact time left in a window and resets after it', async () => {
    const c = clock();
    const kv = createMemoryKv({ now: c.now });
    expect(await kv.consumeWindow('rl', 1, 1, 60_000)).toEqual({ admitted: true, count: 1, resetMs: 60_000 });
    c.advance(15_000);
    expect(await kv.consumeWindow('rl', 1, 1, 60_000)).toEqual({ admitted: false, count: 1, resetMs: 45_000 });
    c.advance(45_000);
    expect(await kv.consumeWindow('rl', 1, 1, 60_000)).toEqual({ admitted: true, count: 1, resetMs: 60_000 });
    await kv.close();
  });

  it('refills a token bucket at exactly capacity per refillMs', async () => {
    const c = clock();
    const kv = createMemoryKv({ now: c.now });
    const take = (cost: number) => kv.consumeAll([{ kind: 'bucket', key: 'rpm', cost, capacity: 50, refillMs: 60_000 }]);
    for (let i = 0; i < 50; i += 1) expect((await take(1)).admitted).toBe(true);
    expect((await take(1)).steps[0]).toEqual({ kind: 'bucket', fits: false, remaining: 0, resetMs: 60_000, retryAfterMs: 1200 });
    c.advance(1199);
    expect((await take(1)).steps[0]).toMatchObject({ fits: false, retryAfterMs: 1 });
    c.advance(1);
    expect((await take(1)).steps[0]).toEqual({ kind: 'bucket', fits: true, remaining: 0, resetMs: 60_000, retryAfterMs: 0 });
    expect(await kv.ttl('rpm')).toBe(60_000);
    c.advance(60_000);
    expect(await kv.get('rpm')).toBeNull();
    await kv.close();
  });

  it('numbers stream ids by sequence within a millisecond and keeps them increasing when the clock goes back', async () => {
    const c = clock(5000);
    const kv = createMemoryKv({ now: c.now });
    expect(await kv.append('q', { v: '1' })).toBe('5000-0');
    expect(await kv.append('q', { v: '2' })).toBe('5000-1');
    c.advance(-1000);
    expect(await kv.append('q', { v: '3' })).toBe('5000-2');
    c.advance(2000);
    expect(await kv.append('q', { v: '4' })).toBe('6000-0');
    expect((await kv.read('q', '5000', 10)).map((e) => e.id)).toEqual(['5000-1', '5000-2', '6000-0']);
    await kv.close();
  });

  it('returns copies, so callers cannot change stored entries', async () => {
    const kv = createMemoryKv();
    const fields = { v: 'a' };
    await kv.append('q', fields);
    fields.v = 'changed';
    const [entry] = await kv.read('q', '0', 1);
    entry!.fields['v'] = 'changed too';
    expect((await kv.read('q', '0', 1))[0]!.fields).toEqual({ v: 'a' });
    await kv.close();
  });
});
