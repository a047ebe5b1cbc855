export type * from './interface.js';
export { type MemoryKvOptions, createMemoryKv } from './memory.js';
export { type RedisKvOptions, createRedisKv } from './redis.js';
export { type KvCircuitOptions, KvUnavailableError } from './redis-circuit.js';
export { type InvalidationBus, type OrgCache, type OrgCacheSettings, createOrgCache } from './org-cache.js';
export { deploymentNamespace } from './deployment-namespace.js';
