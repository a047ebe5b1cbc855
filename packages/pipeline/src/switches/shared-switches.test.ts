import { randomUUID } from 'node:crypto';
import { type Kv, createMemoryKv, createRedisKv } from '@svc/kv';
import { redisReachable, removeRedisKeys, safeRedisHost } from '@svc/kv/test';
import { afterAll, describe, expect, it } from 'vitest';
import { SHARED_SWITCHES_PREFIX, SharedSwitches } from './shared-switches.js';
import { ALL_FLAGS_ON } from './switches.js';

const defaults = { ...ALL_FLAGS_ON, speculation: false };

/** Two instances' switches over one shared kv (two connections on Redis). */
function sharedBy(open: () => Kv): { a: SharedSwitches; b: SharedSwitches; kvs: Kv[] } {
  const kvs = [open(), open()];
  return { a: new SharedSwitches({ kv: kvs[0]!, defaults, refreshMs: 0 }), b: new SharedSwitches({ kv: kvs[1]!, defaults, refreshMs: 0 }), kvs };
}

function switchesSuite(name: string, open: () => Kv): void {
  describe(name, () => {
    it('starts from the configured defaults, level none', async () => {
      const { a, kvs } = sharedBy(open);
      await a.start();
      expect(a.current).toMatchObject({ level: 'none', normal: false, off: { speculation: 'flag' } });
      expect(a.flags().find((f) => f.key === 'speculation')).toMatchObject({ enabled: false, defaultEnabled: false, overridden: false, updatedAt: null });
      expect(a.degradation()).toEqual({ level: 'none', reason: null, updatedAt: null, updatedBy: null });
      await a.stop();
      await Promise.all(kvs.map((kv) => kv.close()));
    });

    it('a change on one instance is in force on the other within a second', async () => {
      const { a, b, kvs } = sharedBy(open);
      await Promise.all([a.start(), b.start()]);
      const level = await a.setDegradation('heavy', 'provider incident', 'key_ops');
      expect(level).toMatchObject({ level: 'heavy', reason: 'provider incident', updatedBy: 'key_ops' });
      expect(a.current.level).toBe('heavy');
      await expect.poll(() => b.current.level, { timeout: 1_000, interval: 10 }).toBe('heavy');
      expect(b.current.off).toMatchObject({ semantic_cache: 'degradation', memory: 'degradation' });

      const flag = await b.setFlag('exact_cache', false, null);
      expect(flag).toMatchObject({ key: 'exact_cache', enabled: false, defaultEnabled: true, overridden: true });
      await expect.poll(() => a.current.flags.exact_cache, { timeout: 1_000, interval: 10 }).toBe(false);
      expect(a.current.off.exact_cache).toBe('flag');

      await a.setDegradation('none', null, null);
      await b.setFlag('exact_cache', true, null);
      await b.setFlag('speculation', true, null);
      await expect.poll(() => a.current.normal, { timeout: 1_000, interval: 10 }).toBe(true);
      await Promise.all([a.stop(), b.stop()]);
      await Promise.all(kvs.map((kv) => kv.close()));
    });

    it("adopts what an earlier release shared by every deployment, once, under the deployment's own prefix", async () => {
      const [kv, other] = [open(), open()];
      const earlier = new SharedSwitches({ kv: other, defaults, refreshMs: 0 });
      await earlier.setDegradation('heavy', 'incident', 'key_ops');
      await earlier.setFlag('memory', false, 'key_ops');
      const ours = (prefix: string) => new SharedSwitches({ kv, defaults, refreshMs: 0, prefix, earlierPrefix: SHARED_SWITCHES_PREFIX });
      const upgraded = ours('svc:store-a:switches:');
      await upgraded.start();
      expect(upgraded.degradation()).toMatchObject({ level: 'heavy', reason: 'incident', updatedBy: 'key_ops' });
      expect(upgraded.current.flags.memory).toBe(false);
      // From now on the deployment's own: a change here is not the earlier set's, nor the other way round.
      await upgraded.setDegradation('none', null, null);
      await earlier.setFlag('speculation', true, null);
      const restarted = ours('svc:store-a:switches:');
      await restarted.start();
      expect(restarted.degradation().level).toBe('none');
      expect(restarted.current.flags.speculation).toBe(false);
      await earlier.reload();
      expect(earlier.degradation().level).toBe('heavy');
      await Promise.all([upgraded.stop(), restarted.stop(), earlier.stop()]);
      await Promise.all([kv.close(), other.close()]);
    });

    it('a new instance starts with what is stored, and skips an unreadable value', async () => {
      const { a, kvs } = sharedBy(open);
      await a.start();
      await a.setFlag('memory', false, 'key_1');
      await kvs[1]!.set('svc:switches:degradation', '{"level":"extreme"}');
      const errors: unknown[] = [];
      const late = new SharedSwitches({ kv: kvs[1]!, defaults, refreshMs: 0, onError: (error) => errors.push(error) });
      await late.start();
      expect(late.current.flags.memory).toBe(false);
      expect(late.current.level).toBe('none');
      expect(errors).toHaveLength(1);
      await Promise.all([a.stop(), late.stop()]);
      await Promise.all(kvs.map((kv) => kv.close()));
    });
  });
}

// One memory kv is one "cluster": both instances share it.
switchesSuite('in-process kv', (() => {
  let kv: Kv | undefined;
  let opened = 0;
  return () => {
    // A fresh kv per test (every other open call shares the previous one).
    if (opened++ % 2 === 0) kv = createMemoryKv();
    return kv!;
  };
})());

const redisUrl = process.env.TEST_REDIS_URL;
if (redisUrl !== undefined && redisUrl !== '') {
  const prefix = `test:switches:${randomUUID().slice(0, 8)}:`;
  if (await redisReachable(redisUrl)) {
    let run = 0;
    let keyPrefix = '';
    switchesSuite('redis', () => {
      if (run++ % 2 === 0) keyPrefix = `${prefix}${run}:`;
      return createRedisKv({ url: redisUrl, keyPrefix });
    });
    afterAll(() => removeRedisKeys(redisUrl, prefix));
  } else {
    it('reaches the Redis at TEST_REDIS_URL (required in CI)', () => {
      expect.fail(`TEST_REDIS_URL (${safeRedisHost(redisUrl)}) is set but does not answer PING`);
    });
  }
}
