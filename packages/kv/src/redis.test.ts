import { describe, expect, it } from 'vitest';
import { createRedisKv } from './redis.js';

// Port 1 refuses connections: a Redis that is down. No server is needed for these tests.
const DOWN = 'redis://127.0.0.1:1';

describe('redis kv with Redis down', () => {
  it('ping resolves false quickly instead of throwing or hanging', async () => {
    const kv = createRedisKv({ url: DOWN, pingTimeoutMs: 300 });
    const started = Date.now();
    expect(await kv.ping()).toBe(false);
    expect(Date.now() - started).toBeLessThan(1000);
    await kv.close();
  });

  it('commands reject within about a second', async () => {
    const kv = createRedisKv({ url: DOWN });
    const started = Date.now();
    await expect(kv.consumeWindow('rl', 1, 10, 1000)).rejects.toThrow();
    await expect(kv.get('a')).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(2000);
    await kv.close();
  });

  it('reports connection errors to onError and closes cleanly', async () => {
    const errors: unknown[] = [];
    const kv = createRedisKv({ url: DOWN, onError: (error) => errors.push(error) });
    await kv.ping();
    expect(errors.length).toBeGreaterThan(0);
    await kv.close();
    expect(await kv.ping()).toBe(false);
  });
});
