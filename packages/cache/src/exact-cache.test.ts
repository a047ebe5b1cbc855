import { randomUUID } from 'node:crypto';
import { type Kv, createMemoryKv, createRedisKv } from '@svc/kv';
import { redisReachable, removeRedisKeys, safeRedisHost } from '@svc/kv/test';
import { afterAll, describe, expect, it } from 'vitest';
import { ExactCache } from './exact-cache.js';
import { describeExactCache } from './exact-cache.suite.js';
import { answerOf, baseRequest } from './test-requests.js';

describeExactCache('exact cache on the memory kv', async (now) => {
  const kv = createMemoryKv({ now });
  return [kv, kv];
});

const redisUrl = process.env.TEST_REDIS_URL;
const runPrefix = `svc-test:${randomUUID()}:`;
let prefixes = 0;

if (redisUrl !== undefined && redisUrl !== '') {
  if (await redisReachable(redisUrl)) {
    describeExactCache('exact cache on redis (two connections)', async () => {
      const keyPrefix = `${runPrefix}${prefixes++}:`;
      return [createRedisKv({ url: redisUrl, keyPrefix }), createRedisKv({ url: redisUrl, keyPrefix })];
    });
    afterAll(() => removeRedisKeys(redisUrl, runPrefix));
  } else if (process.env.CI === 'true') {
    it('reaches the Redis at TEST_REDIS_URL (required in CI)', () => {
      expect.fail(`TEST_REDIS_URL (${safeRedisHost(redisUrl)}) is set but does not answer PING`);
    });
  } else {
    describe.skip(`redis: TEST_REDIS_URL (${safeRedisHost(redisUrl)}) does not answer PING`, () => {
      it('exact cache', () => {});
    });
  }
}

describe('exact cache with a sick kv', () => {
  it('misses after kvTimeoutMs when the Kv hangs', async () => {
    const kv = createMemoryKv();
    const hanging: Kv = new Proxy(kv, {
      get: (target, property, receiver) =>
        property === 'get' ? () => new Promise<never>(() => {}) : Reflect.get(target, property, receiver),
    });
    const errors: unknown[] = [];
    const cache = new ExactCache({ kv: hanging, kvTimeoutMs: 50, onError: (error) => errors.push(error) });
    const started = performance.now();
    expect(await cache.get(cache.key(baseRequest(), 'org_1')!)).toBeUndefined();
    expect(performance.now() - started).toBeLessThan(500);
    expect(String(errors[0])).toContain('did not answer within 50 ms');
    await kv.close();
  });

  it('misses quickly while Redis is down', async () => {
    const kv = createRedisKv({ url: 'redis://127.0.0.1:1' });
    const errors: unknown[] = [];
    const cache = new ExactCache({ kv, kvTimeoutMs: 200, onError: (error) => errors.push(error) });
    const key = cache.key(baseRequest(), 'org_1')!;
    const started = performance.now();
    expect(await cache.get(key)).toBeUndefined();
    await cache.set(key, 'org_1', answerOf('lost', Date.now()));
    expect(performance.now() - started).toBeLessThan(2500);
    expect(errors.length).toBeGreaterThanOrEqual(2);
    await kv.close();
  });

  it('misses and reports an L1 value that is not a stored answer', async () => {
    const kv = createMemoryKv();
    const errors: unknown[] = [];
    const cache = new ExactCache({ kv, keyPrefix: 'c:', onError: (error) => errors.push(error) });
    const key = cache.key(baseRequest(), 'org_1')!;
    // The documented layout: <prefix>e:<all generation>.<org generation>:<key>.
    await kv.set(`c:e:0.0:${key}`, '{"not":"an answer"}');
    expect(await cache.get(key)).toBeUndefined();
    expect(errors).toHaveLength(1);
    await cache.set(key, 'org_1', answerOf('ok', Date.now()));
    expect(await kv.ttl(`c:e:0.0:${key}`)).toBeGreaterThan(3_500_000);
    await kv.close();
  });
});
