import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TcpProxy, startTcpProxy } from '@svc/mock-upstream';
import { useTestApp } from './test-app.js';
import { masterKey } from '../../e2e/harness.js';

/**
 * Dependency outages, measured: the gateway over PostgreSQL and Redis reached through TCP proxies
 * that the tests cut (refused), blackhole (accepted, never answered) and restore.
 */
const databaseUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;
// The master key every suite on the shared PostgreSQL uses: a different one would supersede theirs.
const master = masterKey;
const hostPort = (url: string) => {
  const parsed = new URL(url);
  return { host: parsed.hostname, port: Number(parsed.port || (parsed.protocol.startsWith('redis') ? 6379 : 5432)) };
};

describe.skipIf(!databaseUrl || !redisUrl)('outages of PostgreSQL and Redis', () => {
  let pg: TcpProxy;
  let redis: TcpProxy;
  const env: Record<string, string> = { SVC_CACHE_TTL_SECS: '0' };
  beforeAll(async () => {
    pg = await startTcpProxy(hostPort(databaseUrl!));
    redis = await startTcpProxy(hostPort(redisUrl!));
    Object.assign(env, { DATABASE_URL: pg.urlOf(databaseUrl!), REDIS_URL: redis.urlOf(redisUrl!) });
  });
  const t = useTestApp(master, env);
  afterAll(async () => {
    await pg?.close();
    await redis?.close();
  });

  /** A key with limits of its own and a budget: admission then goes through the kv on every request. */
  const limitedKey = async () => {
    const org = await t.runtime.db.orgs.ensure(`outage-${Math.random()}`);
    return (await t.runtime.authenticator.issue({ orgId: org.id, scopes: ['inference:chat'], rpmLimit: 10_000, tpmLimit: 10_000_000, monthlyBudgetUsd: 1000 })).secret;
  };
  /** Redis answers a command again (the kv's circuit closed). */
  const redisAnswers = () => t.runtime.kv.get('outage-probe').then(() => true, () => false);
  const chat = (key: string) => t.post('/v1/chat/completions', { model: 'svc/auto', messages: [{ role: 'user', content: 'hi' }] }, key);
  const timed = async (key: string) => {
    const started = performance.now();
    const response = await chat(key);
    return { response, ms: performance.now() - started };
  };

  it('Redis down: requests keep being served (fail open) and fast, then recover', async () => {
    const key = await limitedKey();
    expect((await chat(key)).status).toBe(200);
    await redis.cut();
    await chat(key); // learns the outage
    const during = await Promise.all(Array.from({ length: 5 }, () => timed(key)));
    for (const { response } of during) expect(response.status).toBe(200);
    expect(Math.max(...during.map((d) => d.ms))).toBeLessThan(500);
    await redis.restore();
    await expect.poll(redisAnswers, { timeout: 5_000, interval: 100 }).toBe(true);
    expect((await chat(key)).status).toBe(200);
  });

  it('Redis partitioned (connection open, no answers): after the first timeouts requests are served without waiting for Redis', async () => {
    const key = await limitedKey();
    expect((await chat(key)).status).toBe(200);
    redis.stall();
    // The first requests pay the command timeouts that open the circuit.
    await chat(key);
    await chat(key);
    const during = await Promise.all(Array.from({ length: 5 }, () => timed(key)));
    for (const { response } of during) expect(response.status).toBe(200);
    expect(Math.max(...during.map((d) => d.ms))).toBeLessThan(500);
    await redis.restore();
    await expect.poll(redisAnswers, { timeout: 8_000, interval: 100 }).toBe(true);
    expect((await timed(key)).ms).toBeLessThan(200);
  }, 30_000);

  it('PostgreSQL down: 503 database_unavailable with retry-after, fast, then recovery', async () => {
    const key = await t.keyWith(['inference:chat']); // never used: its lookup needs the database
    await pg.cut();
    const first = await timed(key);
    expect(first.response.status).toBe(503);
    expect(first.response.headers.get('retry-after')).toBe('1');
    expect(first.response.headers.get('x-error-id')).toBeTruthy();
    expect(await first.response.json()).toMatchObject({ error: { code: 'database_unavailable' } });
    const again = await timed(key);
    expect(again.response.status).toBe(503);
    expect(again.ms).toBeLessThan(200);
    await pg.restore();
    await expect.poll(async () => (await chat(key)).status, { timeout: 5_000, interval: 200 }).toBe(200);
  });

  it('PostgreSQL blackholed: 503 within the connect timeout, then at once while it lasts', async () => {
    const key = await t.keyWith(['inference:chat']);
    await pg.blackhole();
    const first = await timed(key);
    expect(first.response.status).toBe(503);
    expect(first.ms).toBeLessThan(4_000);
    const again = await timed(key);
    expect(again.response.status).toBe(503);
    expect(again.ms).toBeLessThan(200);
    await pg.restore();
    await expect.poll(async () => (await chat(key)).status, { timeout: 8_000, interval: 200 }).toBe(200);
  }, 20_000);

  it('PostgreSQL partitioned (connections open, silent): 503 after the call timeout, then at once', async () => {
    const key = await t.keyWith(['inference:chat']);
    pg.stall();
    const first = await timed(key);
    expect(first.response.status).toBe(503);
    expect(first.ms).toBeLessThan(11_000);
    const again = await timed(key);
    expect(again.response.status).toBe(503);
    expect(again.ms).toBeLessThan(200);
    await pg.restore();
    await expect.poll(async () => (await chat(key)).status, { timeout: 8_000, interval: 200 }).toBe(200);
  }, 30_000);
});
