// The request path's cost of a per-organisation cache hit, next to a bare lru-cache `get` (the floor).
// Run: cd packages/kv && pnpm vitest bench --run src/org-cache.bench.ts
import { LRUCache } from 'lru-cache';
import { bench, describe } from 'vitest';
import { createOrgCache } from './org-cache.js';

const orgs = Array.from({ length: 1_000 }, (_, i) => `org-${i}`);
const floor = new LRUCache<string, string>({ max: 10_000 });
const cache = createOrgCache<string>({ channel: 'bench:changed', load: async (orgId) => `value of ${orgId}`, ttlMs: 3_600_000 });
for (const orgId of orgs) {
  floor.set(orgId, `value of ${orgId}`);
  await cache.get(orgId);
}

describe('per-organisation cache hit', () => {
  let i = 0;
  bench('bare LRUCache.get (floor)', () => {
    floor.get(orgs[i++ % orgs.length] ?? '');
  });
  bench('createOrgCache get (fresh entry, synchronous)', () => {
    cache.get(orgs[i++ % orgs.length] ?? '');
  });
});
