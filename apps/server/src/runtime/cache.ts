import { ExactCache, type ExactCacheStats } from '@svc/cache';
import { type VectorStore, calibratedThreshold, createHashedEmbedder, createSemanticCache } from '@svc/semantic';
import type { ExactCachePort, SemanticCachePort } from '@svc/pipeline';
import type { CacheStatsWire } from '@svc/control-plane';
import type { RuntimeBase } from './runtime-base.js';
import type { SemanticEmbedderChoice } from './semantic-embedder.js';
import { vectorStoreFor } from './vector-store.js';

/** The answer caches of one instance, as the pipeline and the control plane use them. */
export interface CacheService {
  /** Undefined when `SVC_CACHE_TTL_SECS` is 0. */
  exact: ExactCachePort | undefined;
  /** Undefined when `SVC_SEMANTIC_CACHE` or `SVC_CACHE_TTL_SECS` is 0. */
  semantic: SemanticCachePort | undefined;
  /** `GET /v1/observability/cache/stats` (this instance's counters, in wire names). */
  stats(): CacheStatsWire;
  /** Drops one organisation's entries, or everyone's; idempotent, across instances when the kv is shared. */
  purge(orgId?: string): Promise<void>;
  /** The vector store behind the semantic cache, for readiness (`vector_db`); undefined when the semantic cache is off. */
  vectorStore: { backend: 'in_process' | 'qdrant'; ping(): Promise<boolean> } | undefined;
  start(): Promise<void>;
  close(): Promise<void>;
}

/** What the adapters count (the caches count their own layers). */
interface Counts {
  requests: number;
  uncacheable: number;
  semanticHits: number;
  semanticMisses: number;
  semanticIneligible: number;
}

type SemanticCache = ReturnType<typeof createSemanticCache>;

const rate = (hits: number, lookups: number) => (lookups > 0 ? Math.round((hits / lookups) * 10_000) / 10_000 : 0);

function wire(exact: ExactCacheStats, counts: Counts, ttlMs: number, semantic: { threshold: number; embedder: string; entries: number | null } | undefined): CacheStatsWire {
  const exactHits = exact.hits.l0 + exact.hits.l1;
  const total = exactHits + counts.semanticHits;
  const semanticLookups = counts.semanticHits + counts.semanticMisses;
  return {
    object: 'cache_stats',
    requests: counts.requests,
    hits: { l0: exact.hits.l0, l1: exact.hits.l1, semantic: counts.semanticHits, total },
    misses: Math.max(0, counts.requests - total),
    hit_rate: rate(total, counts.requests),
    by_type: {
      exact: { lookups: exact.lookups, hits: exactHits, misses: exact.misses.l1, hit_rate: rate(exactHits, exact.lookups), uncacheable: counts.uncacheable },
      semantic: {
        enabled: semantic !== undefined,
        lookups: semanticLookups,
        hits: counts.semanticHits,
        misses: counts.semanticMisses,
        ineligible: counts.semanticIneligible,
        hit_rate: rate(counts.semanticHits, semanticLookups),
        threshold: semantic?.threshold ?? null,
        embedder: semantic?.embedder ?? null,
      },
    },
    entries: { l0: exact.l0.entries, semantic: semantic?.entries ?? null },
    bytes: { l0: exact.l0.bytes },
    limits: { l0_max_entries: exact.l0.maxEntries, l0_max_bytes: exact.l0.maxBytes, ttl_seconds: Math.round(ttlMs / 1000) },
    sets: exact.sets,
    evictions: exact.evictions,
    purges: exact.purges,
    errors: exact.errors,
  };
}

function hashedChoice(): SemanticEmbedderChoice {
  const embedder = createHashedEmbedder();
  return { embedder, threshold: calibratedThreshold(embedder.id)! };
}

type CacheBase = Pick<RuntimeBase, 'env' | 'kv' | 'logger'>;

/** The semantic cache as the pipeline uses it, counting hits, misses and ineligible lookups. */
function countedSemanticPort(cache: SemanticCache, counts: Counts): SemanticCachePort {
  return {
    async lookup(request, orgId, audience, vector?: Float32Array) {
      const found = await cache.lookup(request, orgId, audience, vector);
      if (found === undefined) counts.semanticIneligible++;
      else if (found.hit) counts.semanticHits++;
      else counts.semanticMisses++;
      return found;
    },
    store: (request, orgId, answer, miss, audience) =>
      void cache.store(request, orgId, answer, miss?.hit === false ? (miss.reuse as Parameters<typeof cache.store>[3]) : undefined, audience),
  };
}

/** The exact cache as the pipeline uses it, counting the requests that reach it and the uncacheable ones. */
function countedExactPort(exact: ExactCache, counts: Counts): ExactCachePort {
  return {
    key(request, orgId, audience) {
      counts.requests++;
      const key = exact.key(request, orgId, audience);
      if (key === undefined) counts.uncacheable++;
      return key;
    },
    get: (key) => exact.get(key),
    set: (key, orgId, answer) => void exact.set(key, orgId, answer),
  };
}

/**
 * Builds the answer caches from the environment: the exact cache (L0 + the kv's L1) unless
 * `SVC_CACHE_TTL_SECS` is 0, and the semantic cache unless `SVC_SEMANTIC_CACHE=0` or
 * `SVC_CACHE_TTL_SECS` is 0 (an answer that may not be kept cannot be served: embedding and
 * searching would cost every request and never hit) — with the embedder `SVC_SEMANTIC_EMBEDDER`
 * selects (`chooseSemanticEmbedder`: the runtime passes its shared sentence encoder; without a
 * chooser, tests, the local hashed n-gram embedder with its calibrated threshold), over Qdrant
 * when `QDRANT_URL` is set, else the in-process index (bounded by `SVC_SEMANTIC_MAX_ENTRIES`).
 */
export function createCacheService(base: CacheBase, chooseEmbedder: () => SemanticEmbedderChoice = hashedChoice): CacheService {
  const { env, kv, logger } = base;
  const ttlMs = env.SVC_CACHE_TTL_SECS * 1000;
  const counts: Counts = { requests: 0, uncacheable: 0, semanticHits: 0, semanticMisses: 0, semanticIneligible: 0 };
  const exact = new ExactCache({
    kv,
    ttlMs: Math.max(1, ttlMs),
    maxEntries: Math.max(1, env.SVC_CACHE_L0_MAX_ENTRIES),
    maxBytes: Math.max(1, env.SVC_CACHE_L0_MAX_MB) * 1024 * 1024,
    allowNonDeterministic: env.SVC_CACHE_NON_DETERMINISTIC ?? false,
    onError: (error) => logger.warn({ err: error }, 'exact cache unavailable; serving as a miss'),
  });
  let store: VectorStore | undefined;
  let semanticCache: SemanticCache | undefined;
  if ((env.SVC_SEMANTIC_CACHE ?? true) && ttlMs > 0) {
    const { embedder, threshold } = chooseEmbedder();
    store = vectorStoreFor(base, embedder, { capacity: env.SVC_SEMANTIC_MAX_ENTRIES, what: 'vector store' });
    semanticCache = createSemanticCache({
      embedder,
      threshold,
      store,
      ttlMs,
      onError: (error, operation) => logger.warn({ err: error, operation }, 'semantic cache unavailable; serving as a miss'),
    });
  }
  const vectorStore = store;
  return {
    exact: ttlMs > 0 ? countedExactPort(exact, counts) : undefined,
    semantic: semanticCache ? countedSemanticPort(semanticCache, counts) : undefined,
    vectorStore: vectorStore ? { backend: vectorStore.kind === 'qdrant' ? 'qdrant' : 'in_process', ping: () => vectorStore.ping() } : undefined,
    stats: () =>
      wire(exact.stats(), counts, ttlMs, semanticCache ? { threshold: semanticCache.threshold, embedder: semanticCache.embedder.id, entries: null } : undefined),
    async purge(orgId) {
      await Promise.all([exact.purge(orgId), semanticCache?.purge(orgId)]);
    },
    start: () => exact.start(),
    async close() {
      await Promise.all([exact.close(), semanticCache?.close()]);
    },
  };
}
