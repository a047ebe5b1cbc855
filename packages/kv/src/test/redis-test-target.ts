import { Redis } from 'ioredis';
import { createRedisKv } from '../redis.js';

/** Whether the Redis at `url` answers PING within a second (suites then run, or fail in CI). */
export async function redisReachable(url: string): Promise<boolean> {
  const kv = createRedisKv({ url, pingTimeoutMs: 1000 });
  try {
    return await kv.ping();
  } finally {
    await kv.close();
  }
}

/** Deletes every key under `prefix`: a test run leaves nothing behind. */
export async function removeRedisKeys(url: string, prefix: string): Promise<void> {
  const client = new Redis(url, { maxRetriesPerRequest: 1 });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) await client.del(...keys);
    } while (cursor !== '0');
  } finally {
    client.disconnect();
  }
}

/** Host and port only: the URL may carry a password that must not reach CI logs. */
export function safeRedisHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'unparseable URL';
  }
}
