import { createMemoryKv } from '@svc/kv';
import type { Provider } from '@svc/providers';
import { describe, expect, it } from 'vitest';
import { OrgProviderCache, type ProviderLookup } from './org-provider-cache.js';

const lookup = (name: string): ProviderLookup => ({ get: (id) => (id === 'openai' ? ({ id: name } as unknown as Provider) : undefined) });
const served = (value: ProviderLookup | undefined) => value?.get('openai')?.id;
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

function createStore() {
  const own = new Map<string, string>();
  const reads: string[] = [];
  let failing = false;
  return {
    reads,
    own,
    fail: (value: boolean) => {
      failing = value;
    },
    load: async (orgId: string) => {
      reads.push(orgId);
      if (failing) throw new Error('database down');
      const name = own.get(orgId);
      return name === undefined ? undefined : lookup(name);
    },
  };
}

describe('OrgProviderCache', () => {
  it('answers a cached organisation synchronously, "none" included: one store read per TTL', async () => {
    const store = createStore();
    store.own.set('byok', 'own-openai');
    // lru-cache reads a start time of 0 as "no TTL": the clock starts later.
    let now = 10_000;
    const cache = new OrgProviderCache({ load: store.load, ttlMs: 1000, now: () => now });
    expect(cache.forOrg('plain')).toBeInstanceOf(Promise);
    expect(await cache.forOrg('plain')).toBeUndefined();
    expect(served(await cache.forOrg('byok'))).toBe('own-openai');
    for (let i = 0; i < 5; i += 1) {
      expect(cache.forOrg('plain')).toBeUndefined();
      expect(served(cache.forOrg('byok') as ProviderLookup)).toBe('own-openai');
    }
    expect(store.reads).toEqual(['plain', 'byok']);
    now = 11_001;
    expect(cache.forOrg('plain')).toBeInstanceOf(Promise);
    expect(store.reads).toEqual(['plain', 'byok', 'plain']);
  });

  it('shares one load between concurrent misses', async () => {
    const store = createStore();
    store.own.set('org-a', 'own');
    const cache = new OrgProviderCache({ load: store.load });
    const results = await Promise.all([cache.forOrg('org-a'), cache.forOrg('org-a'), cache.forOrg('org-a')]);
    expect(store.reads).toHaveLength(1);
    expect(results[0]).toBe(results[2]);
  });

  it('sees a change at once after invalidate, on this and every instance sharing the bus', async () => {
    const store = createStore();
    // One in-process kv shared by two caches, as Redis is shared by two instances.
    const bus = createMemoryKv();
    const here = new OrgProviderCache({ load: store.load, bus });
    const there = new OrgProviderCache({ load: store.load, bus });
    await Promise.all([here.start(), there.start()]);
    expect(await here.forOrg('org-a')).toBeUndefined();
    expect(await there.forOrg('org-a')).toBeUndefined();

    store.own.set('org-a', 'own');
    await here.invalidate('org-a');
    expect(served(await here.forOrg('org-a'))).toBe('own');
    await flush();
    expect(served(await there.forOrg('org-a'))).toBe('own');

    await there.stop();
    store.own.delete('org-a');
    await here.invalidate('org-a');
    await flush();
    expect(await here.forOrg('org-a')).toBeUndefined();
    expect(served(await there.forOrg('org-a'))).toBe('own');
    await here.stop();
    await bus.close();
  });

  it('does not cache a load that an invalidation overtook', async () => {
    let release: (value: ProviderLookup | undefined) => void = () => {};
    let calls = 0;
    const cache = new OrgProviderCache({
      load: () => {
        calls += 1;
        if (calls === 1) return new Promise((resolve) => (release = resolve));
        return Promise.resolve(lookup('new'));
      },
    });
    const stale = cache.forOrg('org-a');
    await cache.invalidate('org-a');
    release(undefined);
    expect(await stale).toBeUndefined();
    expect(served(await cache.forOrg('org-a'))).toBe('new');
    expect(calls).toBe(2);
  });

  it('fails open: stale providers keep serving after a failed reload, the platform keys when none are cached', async () => {
    const store = createStore();
    store.own.set('org-a', 'own');
    // lru-cache reads a start time of 0 as "no TTL": the clock starts later.
    let now = 10_000;
    const errors: unknown[] = [];
    const cache = new OrgProviderCache({ load: store.load, ttlMs: 1000, retryAfterMs: 100, now: () => now, onError: (error) => errors.push(error) });
    expect(served(await cache.forOrg('org-a'))).toBe('own');
    store.fail(true);
    now = 12_000;
    expect(served(await cache.forOrg('org-a'))).toBe('own');
    expect(served(cache.forOrg('org-a') as ProviderLookup)).toBe('own');
    expect(await cache.forOrg('org-b')).toBeUndefined();
    expect(errors).toHaveLength(2);
    expect(store.reads).toEqual(['org-a', 'org-a', 'org-b']);
    store.fail(false);
    now = 12_101;
    expect(served(await cache.forOrg('org-a'))).toBe('own');
    expect(store.reads).toHaveLength(4);
  });

  it('keeps at most maxOrgs organisations, least recently used out first', async () => {
    const store = createStore();
    const cache = new OrgProviderCache({ load: store.load, maxOrgs: 2 });
    await cache.forOrg('a');
    await cache.forOrg('b');
    cache.forOrg('a');
    await cache.forOrg('c');
    expect(cache.forOrg('a')).toBeUndefined();
    expect(cache.forOrg('b')).toBeInstanceOf(Promise);
    expect(store.reads).toEqual(['a', 'b', 'c', 'b']);
  });
});
