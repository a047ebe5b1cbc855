export { type KvConformanceOptions, runKvConformance } from './run-kv-conformance.js';
export { redisReachable, removeRedisKeys, safeRedisHost } from './redis-test-target.js';
