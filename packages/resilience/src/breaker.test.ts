import { randomUUID } from 'node:crypto';
import { createMemoryKv, createRedisKv } from '@svc/kv';
import { redisReachable, removeRedisKeys, safeRedisHost } from '@svc/kv/test';
import { afterAll, describe, expect, it } from 'vitest';
import { CircuitBreakers } from './breaker.js';
import { runBreakerConformance } from './test/index.js';

runBreakerConformance('memory', async () => createMemoryKv());

const redisUrl = process.env.TEST_REDIS_URL;
// Every test gets its own prefix under one per-run prefix, removed after the run.
const runPrefix = `svc-test:resilience:${randomUUID()}:`;
let prefixes = 0;
const freshPrefix = (): string => `${runPrefix}${prefixes++}:`;

if (redisUrl !== undefined && redisUrl !== '') {
  if (await redisReachable(redisUrl)) {
    runBreakerConformance('redis', async () => createRedisKv({ url: redisUrl, keyPrefix: freshPrefix() }), {
      createPair: async () => {
        const keyPrefix = freshPrefix();
        return [createRedisKv({ url: redisUrl, keyPrefix }), createRedisKv({ url: redisUrl, keyPrefix })];
      },
    });
    afterAll(() => removeRedisKeys(redisUrl, runPrefix));
  } else if (process.env.CI === 'true') {
    it('reaches the Redis at TEST_REDIS_URL (required in CI)', () => {
      expect.fail(`TEST_REDIS_URL (${safeRedisHost(redisUrl)}) is set but does not answer PING`);
    });
  } else {
    describe.skip(`redis: TEST_REDIS_URL (${safeRedisHost(redisUrl)}) does not answer PING`, () => {
      it('conformance', () => {});
    });
  }
}

describe('circuit breakers when the Kv fails', () => {
  it('admit calls, absorb record errors and report them', async () => {
    const kv = createMemoryKv();
    await kv.close();
    const errors: unknown[] = [];
    const breakers = new CircuitBreakers({ kv, consecutiveFailures: 1, onError: (error) => errors.push(error) });
    expect(await breakers.allow('openai/gpt-4o')).toEqual({ allowed: true, probe: false });
    await expect(breakers.record('openai/gpt-4o', 'failure')).resolves.toBeUndefined();
    expect(await breakers.allow('openai/gpt-4o')).toEqual({ allowed: true, probe: false });
    expect(errors.length).toBeGreaterThan(0);
    await expect(breakers.status('openai/gpt-4o')).rejects.toThrow();
  });

  it('costs a healthy request no Kv read while the closed view is fresh', async () => {
    const kv = createMemoryKv();
    let reads = 0;
    const counting = new Proxy(kv, {
      get(target, property, receiver) {
        if (property === 'get') reads++;
        return Reflect.get(target, property, receiver);
      },
    });
    let clock = 0;
    const breakers = new CircuitBreakers({ kv: counting, now: () => clock, cacheMs: 250 });
    await Promise.all(Array.from({ length: 50 }, () => breakers.allow('a/b')));
    for (let i = 0; i < 100; i++) await breakers.allow('a/b');
    expect(reads).toBe(1);
    clock = 250;
    await breakers.allow('a/b');
    expect(reads).toBe(2);
    await kv.close();
  });

  it('rejects settings that cannot work', () => {
    const kv = createMemoryKv();
    expect(() => new CircuitBreakers({ kv, errorRatio: 0 })).toThrow(RangeError);
    expect(() => new CircuitBreakers({ kv, cooldownBaseMs: 10, cooldownMaxMs: 5 })).toThrow(RangeError);
    expect(() => new CircuitBreakers({ kv, halfOpenMaxProbes: 0 })).toThrow(RangeError);
  });
});
