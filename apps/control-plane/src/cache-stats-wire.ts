/** `GET /v1/observability/cache/stats`: this instance's answer-cache counters, in wire names. */
export interface CacheStatsWire {
  object: 'cache_stats';
  /** Requests that reached the cache stage (cache and full modes with enable_cache). */
  requests: number;
  hits: { l0: number; l1: number; semantic: number; total: number };
  /** Requests no layer answered. */
  misses: number;
  hit_rate: number;
  by_type: {
    exact: { lookups: number; hits: number; misses: number; hit_rate: number; uncacheable: number };
    semantic: { enabled: boolean; lookups: number; hits: number; misses: number; ineligible: number; hit_rate: number; threshold: number | null; embedder: string | null };
  };
  entries: { l0: number; semantic: number | null };
  bytes: { l0: number };
  limits: { l0_max_entries: number; l0_max_bytes: number; ttl_seconds: number };
  sets: number;
  evictions: number;
  purges: number;
  errors: number;
}
