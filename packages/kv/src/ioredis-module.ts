import { createRequire } from 'node:module';
import type * as Ioredis from 'ioredis';

let loaded: typeof Ioredis | undefined;

/**
 * ioredis, required by the first Redis kv rather than at import: a gateway without `REDIS_URL`
 * never loads it (~1.7 MiB of heap). Synchronous (ioredis is CommonJS), so `createRedisKv` stays so.
 */
export function ioredis(): typeof Ioredis {
  loaded ??= createRequire(import.meta.url)('ioredis') as typeof Ioredis;
  return loaded;
}
