export { type ExactCacheKeyOptions, type UncacheableReason, exactCacheKey, orgOfExactKey, uncacheableReason } from './exact-cache-key.js';
