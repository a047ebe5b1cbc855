export { type ExactCacheKeyOptions, type UncacheableReason, exactCacheKey, orgOfExactKey, uncacheableReason } from './exact-cache-key.js';
export { type ExactCacheHit, type ExactCacheSettings, type ExactCacheStats, ExactCache, type PurgeResult } from './exact-cache.js';
