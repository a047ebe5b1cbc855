import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Kv } from './interface.js';
import { createMemoryKv } from './memory.js';
import { type OrgCacheSettings, createOrgCache } from './org-cache.js';
import { createRedisKv } from './redis.js';
import { removeRedisKeys } from './test/index.js';

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

/** A store of one value per key, counting reads, that can be made to fail. */
function createStore() {
  const values = new Map<string, string>();
  const reads: string[] = [];
  let failing = false;
  return {
    values,
    reads,
    fail: (value: boolean) => {
      failing = value;
    },
    load: async (key: string): Promise<string> => {
      reads.push(key);
      if (failing) throw new Error('database down');
      return values.get(key) ?? 'none';
    },
  };
}

function cache(store: ReturnType<typeof createStore>, settings: Partial<OrgCacheSettings<string>> = {}) {
  return createOrgCache<string>({ load: store.load, channel: 'test:changed', ...settings });
}

describe('createOrgCache', () => {
  it('answers synchronously while fresh, one store read per lifetime, a value\'s own lifetime included', async () => {
    const store = createStore();
    store.values.set('brief', 'short-lived');
    let now = 0;
    const orgs = cache(store, { ttlMs: 1000, ttlOf: (value) => (value === 'short-lived' ? 100 : undefined), now: () => now });
    expect(orgs.get('a')).toBeInstanceOf(Promise);
    expect(await orgs.get('a')).toBe('none');
    expect(await orgs.get('brief')).toBe('short-lived');
    expect(orgs.get('a')).toBe('none');
    expect(orgs.get('brief')).toBe('short-lived');
    now = 101;
    expect(orgs.get('a')).toBe('none');
    expect(orgs.get('brief')).toBeInstanceOf(Promise);
    now = 1001;
    expect(orgs.get('a')).toBeInstanceOf(Promise);
    expect(store.reads).toEqual(['a', 'brief', 'brief', 'a']);
  });

  it('shares one load between concurrent misses', async () => {
    const store = createStore();
    const orgs = cache(store);
    expect(await Promise.all([orgs.get('a'), orgs.get('a'), orgs.get('a')])).toEqual(['none', 'none', 'none']);
    expect(store.reads).toEqual(['a']);
  });

  it('sees a change at once after invalidate, here and on every instance sharing the kv, until stopped', async () => {
    const store = createStore();
    const kv = createMemoryKv();
    const here = cache(store, { bus: kv });
    const there = cache(store, { bus: kv });
    await Promise.all([here.start(), there.start()]);
    expect([await here.get('a'), await there.get('a')]).toEqual(['none', 'none']);
    store.values.set('a', 'new');
    await here.invalidate('a');
    expect(await here.get('a')).toBe('new');
    await flush();
    expect(await there.get('a')).toBe('new');
    await there.stop();
    store.values.set('a', 'newer');
    await here.invalidate('a');
    await flush();
    expect(await here.get('a')).toBe('newer');
    expect(await there.get('a')).toBe('new');
    await here.stop();
    await kv.close();
  });

  it('does not cache a load that an invalidation overtook', async () => {
    let release: (value: string) => void = () => {};
    let calls = 0;
    const orgs = createOrgCache<string>({
      channel: 'test:changed',
      load: () => {
        calls += 1;
        return calls === 1 ? new Promise((resolve) => (release = resolve)) : Promise.resolve('new');
      },
    });
    const overtaken = orgs.get('a');
    await orgs.invalidate('a');
    release('old');
    expect(await overtaken).toBe('old');
    expect(await orgs.get('a')).toBe('new');
    expect(calls).toBe(2);
  });

  it('drops every value carrying an invalidated tag, and does not cache a load in flight that may carry it', async () => {
    const store = createStore();
    const orgs = cache(store, { tagsOf: (value) => [`org:${value.split('/')[0]}`] });
    store.values.set('k1', 'o1/k1');
    store.values.set('k2', 'o1/k2');
    store.values.set('k3', 'o2/k3');
    await Promise.all([orgs.get('k1'), orgs.get('k2'), orgs.get('k3')]);
    const inFlight = orgs.get('k4');
    await orgs.invalidate('org:o1');
    await inFlight;
    expect(orgs.get('k1')).toBeInstanceOf(Promise);
    expect(orgs.get('k2')).toBeInstanceOf(Promise);
    expect(orgs.get('k3')).toBe('o2/k3');
    expect(orgs.get('k4')).toBeInstanceOf(Promise);
  });

  it('rejects a failed load without retryAfterMs, and caches nothing', async () => {
    const store = createStore();
    store.fail(true);
    const orgs = cache(store);
    await expect(orgs.get('a')).rejects.toThrow('database down');
    store.fail(false);
    expect(await orgs.get('a')).toBe('none');
    expect(store.reads).toEqual(['a', 'a']);
  });

  it('with retryAfterMs: serves the stale value, else the fallback, else rejects; retried after retryAfterMs', async () => {
    const store = createStore();
    store.values.set('a', 'old');
    let now = 0;
    const errors: string[] = [];
    const settings = { ttlMs: 1000, retryAfterMs: 100, now: () => now, onError: (_: unknown, key: string) => errors.push(key) };
    const orgs = cache(store, settings);
    const withFallback = cache(store, { ...settings, fallback: () => 'platform' });
    expect(await orgs.get('a')).toBe('old');
    store.fail(true);
    now = 2000;
    expect(await orgs.get('a')).toBe('old');
    expect(orgs.get('a')).toBe('old');
    await expect(orgs.get('b')).rejects.toThrow('database down');
    expect(await withFallback.get('b')).toBe('platform');
    expect(withFallback.get('b')).toBe('platform');
    expect(errors).toEqual(['a', 'b']);
    store.fail(false);
    now = 2101;
    expect(await orgs.get('a')).toBe('old');
    expect(await withFallback.get('b')).toBe('none');
    expect(store.reads).toEqual(['a', 'a', 'b', 'b', 'a', 'b']);
  });

  it('keeps at most maxOrgs, least recently used out first', async () => {
    const store = createStore();
    const orgs = cache(store, { maxOrgs: 2 });
    await orgs.get('a');
    await orgs.get('b');
    orgs.get('a');
    await orgs.get('c');
    expect(orgs.get('a')).toBe('none');
    expect(orgs.get('b')).toBeInstanceOf(Promise);
    expect(store.reads).toEqual(['a', 'b', 'c', 'b']);
  });

  const redisUrl = process.env.TEST_REDIS_URL;
  it.skipIf(!redisUrl)('invalidates across two instances over Redis', async () => {
    const keyPrefix = `svc-test:${randomUUID()}:`;
    const kvs: Kv[] = [createRedisKv({ url: redisUrl ?? '', keyPrefix }), createRedisKv({ url: redisUrl ?? '', keyPrefix })];
    const store = createStore();
    const [here, there] = kvs.map((bus) => cache(store, { bus, channel: `${keyPrefix}changed` }));
    if (!here || !there) throw new Error('two caches expected');
    await Promise.all([here.start(), there.start()]);
    expect(await there.get('a')).toBe('none');
    store.values.set('a', 'new');
    await here.invalidate('a');
    await expect.poll(() => there.get('a')).toBe('new');
    await Promise.all([here.stop(), there.stop()]);
    await Promise.all(kvs.map((kv) => kv.close()));
    await removeRedisKeys(redisUrl ?? '', keyPrefix);
  });
});
