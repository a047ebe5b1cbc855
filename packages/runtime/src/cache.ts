import { ExactCache, type ExactCacheStats } from '@svc/cache';
import type { Kv } from '@svc/kv';
import type { ExactCachePort, SemanticCachePort } from '@svc/pipeline';
import type { Logger } from '@svc/telemetry';
import type { Env } from './env.js';

/** The answer caches of one instance, as the pipeline and the control plane use them. */
export interface CacheService {
  /** Undefined when `SVC_CACHE_TTL_SECS` is 0. */
  exact: ExactCachePort | undefined;
  semantic: SemanticCachePort | undefined;
  /** `GET /v1/observability/cache/stats` (this instance's counters, in wire names). */
  stats(): CacheStatsWire;
  /** Drops one organisation's entries, or everyone's; idempotent, across instances when the kv is shared. */
  purge(orgId?: string): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

export interface CacheStatsWire {
  object: 'cache_stats';
  hits: { l0: number; l1: number; semantic: number; total: number };
  misses: number;
  lookups: number;
  hit_rate: number;
  by_type: { exact: { hits: number; misses: number; hit_rate: number }; semantic: { hits: number; misses: number; hit_rate: number; enabled: boolean } };
  entries: { l0: number; semantic: number | null };
  bytes: { l0: number };
  limits: { l0_max_entries: number; l0_max_bytes: number; ttl_seconds: number };
  sets: number;
  evictions: number;
  purges: number;
  errors: number;
}

const rate = (hits: number, lookups: number) => (lookups > 0 ? Math.round((hits / lookups) * 10_000) / 10_000 : 0);

function wire(exact: ExactCacheStats, ttlMs: number): CacheStatsWire {
  const exactHits = exact.hits.l0 + exact.hits.l1;
  return {
    object: 'cache_stats',
    hits: { l0: exact.hits.l0, l1: exact.hits.l1, semantic: 0, total: exactHits },
    misses: exact.misses.l1,
    lookups: exact.lookups,
    hit_rate: exact.hitRate,
    by_type: {
      exact: { hits: exactHits, misses: exact.misses.l1, hit_rate: rate(exactHits, exact.lookups) },
      semantic: { hits: 0, misses: 0, hit_rate: 0, enabled: false },
    },
    entries: { l0: exact.l0.entries, semantic: null },
    bytes: { l0: exact.l0.bytes },
    limits: { l0_max_entries: exact.l0.maxEntries, l0_max_bytes: exact.l0.maxBytes, ttl_seconds: Math.round(ttlMs / 1000) },
    sets: exact.sets,
    evictions: exact.evictions,
    purges: exact.purges,
    errors: exact.errors,
  };
}

/** Builds the exact cache (L0 + the kv's L1) from the environment. */
export function createCacheService(env: Env, kv: Kv, logger: Logger): CacheService {
  const ttlMs = env.SVC_CACHE_TTL_SECS * 1000;
  const exact = new ExactCache({
    kv,
    ttlMs,
    maxEntries: env.SVC_CACHE_L0_MAX_ENTRIES,
    maxBytes: env.SVC_CACHE_L0_MAX_MB * 1024 * 1024,
    allowNonDeterministic: env.SVC_CACHE_NON_DETERMINISTIC ?? false,
    onError: (error) => logger.warn({ err: error }, 'exact cache unavailable; serving as a miss'),
  });
  return {
    exact: ttlMs > 0 ? { key: (request, orgId) => exact.key(request, orgId), get: (key) => exact.get(key), set: (key, orgId, answer) => void exact.set(key, orgId, answer) } : undefined,
    semantic: undefined,
    stats: () => wire(exact.stats(), ttlMs),
    async purge(orgId) {
      await exact.purge(orgId);
    },
    start: () => exact.start(),
    close: () => exact.close(),
  };
}
