import type { InvalidationBus } from '@svc/kv';
import { describe, expect, it } from 'vitest';
import { CachedGovernanceSource, type GovernanceSnapshot } from './index.js';

/** One in-process bus shared by several sources, as the kv is shared by several instances. */
function createBus(): InvalidationBus {
  const listeners = new Map<string, Set<(message: string) => void>>();
  return {
    async publish(channel, message) {
      for (const listener of listeners.get(channel) ?? []) queueMicrotask(() => listener(message));
    },
    async subscribe(channel, onMessage) {
      const set = listeners.get(channel) ?? new Set();
      set.add(onMessage);
      listeners.set(channel, set);
      return async () => {
        set.delete(onMessage);
      };
    },
  };
}

function createStore() {
  const snapshots = new Map<string, GovernanceSnapshot>();
  const reads: string[] = [];
  let failing = false;
  return {
    reads,
    set: (orgId: string, snapshot: GovernanceSnapshot) => snapshots.set(orgId, snapshot),
    fail: (value: boolean) => {
      failing = value;
    },
    load: async (orgId: string): Promise<GovernanceSnapshot> => {
      reads.push(orgId);
      if (failing) throw new Error('database down');
      return snapshots.get(orgId) ?? { tools: [], policy: undefined };
    },
  };
}

const enforced: GovernanceSnapshot = { tools: [{ name: 'search', parameters: {} }], policy: { enforceRegistry: true } };
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('CachedGovernanceSource', () => {
  it('caches "no governance" per organisation: one store read per TTL', async () => {
    const store = createStore();
    let now = 0;
    const source = new CachedGovernanceSource({ load: store.load, ttlMs: 1000, now: () => now });
    for (let i = 0; i < 5; i += 1) expect((await source.get('org-a')).active).toBe(false);
    expect(store.reads).toEqual(['org-a']);
    now = 1001;
    await source.get('org-a');
    expect(store.reads).toEqual(['org-a', 'org-a']);
  });

  it('shares one load between concurrent misses', async () => {
    const store = createStore();
    store.set('org-a', enforced);
    const source = new CachedGovernanceSource({ load: store.load });
    const results = await Promise.all([source.get('org-a'), source.get('org-a'), source.get('org-a')]);
    expect(store.reads).toHaveLength(1);
    expect(results[0]).toBe(results[2]);
    expect(results[0]?.policy.enforceRegistry).toBe(true);
  });

  it('sees a change at once after invalidate, on this and every instance sharing the bus', async () => {
    const store = createStore();
    const bus = createBus();
    const here = new CachedGovernanceSource({ load: store.load, bus });
    const there = new CachedGovernanceSource({ load: store.load, bus });
    await Promise.all([here.start(), there.start()]);
    expect((await here.get('org-a')).active).toBe(false);
    expect((await there.get('org-a')).active).toBe(false);

    store.set('org-a', enforced);
    await here.invalidate('org-a');
    expect((await here.get('org-a')).active).toBe(true);
    await flush();
    expect((await there.get('org-a')).active).toBe(true);

    await there.stop();
    store.set('org-a', { tools: [], policy: undefined });
    await here.invalidate('org-a');
    await flush();
    expect((await there.get('org-a')).active).toBe(true);
    await here.stop();
  });

  it('does not cache a load that started before an invalidation', async () => {
    let release: (snapshot: GovernanceSnapshot) => void = () => {};
    let calls = 0;
    const source = new CachedGovernanceSource({
      load: () => {
        calls += 1;
        if (calls === 1) return new Promise((resolve) => (release = resolve));
        return Promise.resolve(enforced);
      },
    });
    const stale = source.get('org-a');
    await source.invalidate('org-a');
    release({ tools: [], policy: undefined });
    expect((await stale).active).toBe(false);
    expect((await source.get('org-a')).active).toBe(true);
    expect(calls).toBe(2);
  });

  it('keeps serving a stale snapshot when a reload fails, and rejects when it has none', async () => {
    const store = createStore();
    store.set('org-a', enforced);
    let now = 0;
    const errors: unknown[] = [];
    const source = new CachedGovernanceSource({ load: store.load, ttlMs: 1000, retryAfterMs: 100, now: () => now, onError: (error) => errors.push(error) });
    expect((await source.get('org-a')).active).toBe(true);
    store.fail(true);
    now = 2000;
    expect((await source.get('org-a')).active).toBe(true);
    expect(errors).toHaveLength(1);
    expect((await source.get('org-a')).active).toBe(true);
    expect(store.reads).toHaveLength(2);
    await expect(source.get('org-b')).rejects.toThrow('database down');
    store.fail(false);
    now = 2101;
    expect((await source.get('org-a')).active).toBe(true);
    expect(store.reads).toHaveLength(4);
  });

  it('keeps at most maxOrgs organisations', async () => {
    const store = createStore();
    const source = new CachedGovernanceSource({ load: store.load, maxOrgs: 2 });
    await source.get('a');
    await source.get('b');
    await source.get('c');
    await source.get('c');
    await source.get('b');
    expect(store.reads).toEqual(['a', 'b', 'c']);
    await source.get('a');
    expect(store.reads).toEqual(['a', 'b', 'c', 'a']);
  });
});
