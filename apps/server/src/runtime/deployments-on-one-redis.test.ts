import { redisReachable, safeRedisHost } from '@svc/kv/test';
import { describe, expect, it } from 'vitest';
import { parseEnv } from './env.js';
import { createRuntime } from './runtime.js';

const redisUrl = process.env.TEST_REDIS_URL;
const reachable = redisUrl !== undefined && redisUrl !== '' && (await redisReachable(redisUrl));

/** A deployment of its own (a store of its own) on the shared Redis database. */
const deployment = () =>
  createRuntime(parseEnv({ SVC_DATA_DIR: 'memory://', REDIS_URL: redisUrl ?? '', SVC_SENTENCE_ENCODER: 'hashed', SVC_MOCK_PROVIDER: '1', LOG_LEVEL: 'silent', SVC_BREAKER_CONSECUTIVE_FAILURES: '2' }));

describe.runIf(reachable)('two deployments on one Redis database', () => {
  it("keep their switches and breakers apart (each under its store's identity)", async () => {
    const [a, b] = [await deployment(), await deployment()];
    try {
      expect(a.kvNamespace).not.toBe(b.kvNamespace);
      await a.switches.setDegradation('heavy', 'staging drill', 'key_ops');
      await a.switches.setFlag('memory', false, 'key_ops');
      await b.switches.reload();
      expect(b.switches.degradation().level).toBe('none');
      expect(b.switches.current.flags.memory).toBe(true);

      for (let i = 0; i < 2; i++) await a.breakers.record('mock/mock-value', 'failure');
      expect((await a.breakers.status('mock/mock-value')).state).toBe('open');
      expect((await b.breakers.status('mock/mock-value')).state).toBe('closed');
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});

describe.runIf(redisUrl !== undefined && redisUrl !== '' && !reachable)('Redis at TEST_REDIS_URL', () => {
  it('answers (required in CI)', () => {
    expect.fail(`TEST_REDIS_URL (${safeRedisHost(redisUrl ?? '')}) is set but does not answer PING`);
  });
});
