import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import type { Kv } from './interface.js';
import { createMemoryKv } from './memory.js';
import { createRedisKv } from './redis.js';
import { redisReachable, removeRedisKeys, runKvConformance, safeRedisHost } from './test/index.js';

runKvConformance('memory', async () => createMemoryKv());

const redisUrl = process.env.TEST_REDIS_URL;
// Every test gets its own prefix under one per-run prefix, removed after the run.
const runPrefix = `svc-test:${randomUUID()}:`;
let prefixes = 0;
const freshPrefix = (): string => `${runPrefix}${prefixes++}:`;

if (redisUrl !== undefined && redisUrl !== '') {
  if (await redisReachable(redisUrl)) {
    runKvConformance('redis', async () => createRedisKv({ url: redisUrl, keyPrefix: freshPrefix() }));
    describeAcrossInstances(redisUrl);
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

function describeAcrossInstances(url: string): void {
  describe('redis across instances (two connections, one prefix)', () => {
    const open: Kv[] = [];
    const pair = (): [Kv, Kv] => {
      const keyPrefix = freshPrefix();
      const a = createRedisKv({ url, keyPrefix });
      const b = createRedisKv({ url, keyPrefix });
      open.push(a, b);
      return [a, b];
    };
    afterEach(async () => {
      await Promise.all(open.splice(0).map((kv) => kv.close()));
    });

    it('share one rate-limit window', async () => {
      const [a, b] = pair();
      const results = await Promise.all(
        Array.from({ length: 200 }, (_, i) => (i % 2 === 0 ? a : b).consumeWindow('org:1:rpm', 1, 30, 10_000)),
      );
      expect(results.filter((r) => r.admitted)).toHaveLength(30);
      expect(await a.consumeWindow('org:1:rpm', 0, 30, 10_000)).toMatchObject({ count: 30 });
    });

    it('share one token bucket and its counters', async () => {
      const [a, b] = pair();
      const results = await Promise.all(
        Array.from({ length: 200 }, (_, i) =>
          (i % 2 === 0 ? a : b).consumeAll([
            { kind: 'bucket', key: '{org}:rpm', cost: 1, capacity: 30, refillMs: 60_000 },
            { kind: 'counter', key: '{org}:spend', cost: 5, limit: 1000 },
          ]),
        ),
      );
      expect(results.filter((r) => r.admitted)).toHaveLength(30);
      expect(await b.get('{org}:spend')).toBe('150');
    });

    it('let exactly one instance win setIfAbsent', async () => {
      const [a, b] = pair();
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? a : b).setIfAbsent('lock', `${i}`)));
      expect(results.filter(Boolean)).toHaveLength(1);
    });

    it('deliver a message published on one instance to subscribers on the other', async () => {
      const [a, b] = pair();
      const received: string[] = [];
      await b.subscribe('revocations', (message) => received.push(message));
      await a.publish('revocations', 'key_123');
      await vi.waitFor(() => expect(received).toEqual(['key_123']));
    });

    it('read what the other appended', async () => {
      const [a, b] = pair();
      const id = await a.append('learn', { kind: 'usage' });
      expect(await b.read('learn', '0', 10)).toEqual([{ id, fields: { kind: 'usage' } }]);
    });
  });
}
