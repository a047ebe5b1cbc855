import { createDb } from '@svc/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaled } from './faults/scale.js';
import { masterKey, startGateway } from './harness.js';

type Gateway = Awaited<ReturnType<typeof startGateway>>;
const shared = process.env.TEST_REDIS_URL && process.env.TEST_DATABASE_URL;

/** Issue 6: limits hold across instances sharing Redis, under concurrent bursts. */
describe.skipIf(!shared && process.env.CI !== 'true')('limits across three instances (Redis)', () => {
  let gateways: Gateway[] = [];
  const env = { DATABASE_URL: process.env.TEST_DATABASE_URL ?? '', REDIS_URL: process.env.TEST_REDIS_URL ?? '', SVC_MOCK_PROVIDER: '1', SVC_CACHE_TTL_SECS: '0', SVC_SEMANTIC_CACHE: '0' };

  beforeAll(async () => {
    gateways = await Promise.all([startGateway(env), startGateway(env), startGateway(env)]);
  });
  afterAll(async () => {
    await Promise.all(gateways.map((g) => g.stop()));
  });

  async function tenant(limits: { rpmLimit?: number; monthlyBudgetUsd?: number }): Promise<string> {
    const { runtime } = gateways[0]!;
    const org = await runtime.db.orgs.create({ name: `limits-e2e-${Date.now()}-${Math.random()}`, ...limits });
    return (await runtime.authenticator.issue({ orgId: org.id, scopes: ['inference:chat'] })).secret;
  }

  const burst = (key: string, count: number, body: (i: number) => Record<string, unknown>) =>
    Promise.all(
      Array.from({ length: count }, async (_, i) => {
        const response = await fetch(`${gateways[i % 3]!.inferenceUrl}/v1/chat/completions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify(body(i)),
        });
        await response.arrayBuffer();
        return response.status;
      }),
    );

  // SVC_FAULTS_SCALE (the fault suite's long form) makes the bursts larger.
  const burstSize = scaled(300);

  it(`admits exactly 50 of a burst of ${burstSize} against an RPM of 50, whichever instance takes them`, async () => {
    const key = await tenant({ rpmLimit: 50 });
    const started = performance.now();
    const statuses = await burst(key, burstSize, (i) => ({ model: 'mock/mock-speed', messages: [{ role: 'user', content: `burst ${i}` }] }));
    const elapsedMs = performance.now() - started;
    // The bucket refills continuously (one request per 1.2 s at 50 RPM): a burst that outlasts
    // 1.2 s on a loaded machine has honestly earned one more admission per 1.2 s, never more.
    const refilled = Math.floor(elapsedMs / 1_200);
    const admitted = statuses.filter((s) => s === 200).length;
    expect(admitted).toBeGreaterThanOrEqual(50);
    expect(admitted).toBeLessThanOrEqual(50 + refilled);
    expect(statuses.filter((s) => s === 429)).toHaveLength(burstSize - admitted);
    if (refilled === 0) expect(admitted).toBe(50);
  }, 60_000);

  it('honours a revocation made on one instance on the others within a second', async () => {
    const org = await gateways[0]!.runtime.db.orgs.create({ name: `revoke-e2e-${Date.now()}` });
    const { record, secret } = await gateways[0]!.runtime.authenticator.issue({ orgId: org.id, scopes: ['inference:chat'] });
    const ask = async (g: Gateway) => {
      const response = await fetch(`${g.inferenceUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'mock/mock-speed', messages: [{ role: 'user', content: 'still valid?' }] }),
      });
      const body = (await response.json()) as { error?: { code: string } };
      return response.status === 200 ? 'valid' : (body.error?.code ?? String(response.status));
    };
    // Every instance has the key cached as valid before the revocation.
    expect(await Promise.all(gateways.map(ask))).toEqual(['valid', 'valid', 'valid']);
    const revoked = await fetch(`${gateways[0]!.controlUrl}/v1/admin/keys/${record.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${masterKey}` } });
    expect(revoked.status).toBe(200);
    const since = performance.now();
    for (const g of gateways.slice(1)) await expect.poll(() => ask(g), { timeout: 1_000, interval: 20 }).toBe('revoked_api_key');
    expect(performance.now() - since).toBeLessThan(1_000);
  }, 30_000);

  it('keeps the settled spend of parallel requests within the monthly budget', async () => {
    const budget = 0.0005;
    const org = await gateways[0]!.runtime.db.orgs.create({ name: `budget-e2e-${Date.now()}`, monthlyBudgetUsd: budget });
    const key = (await gateways[0]!.runtime.authenticator.issue({ orgId: org.id, scopes: ['inference:chat'] })).secret;
    const statuses = await burst(key, scaled(120), (i) => ({ model: 'mock/mock-quality', max_tokens: 64, messages: [{ role: 'user', content: `spend ${i}` }] }));
    expect(statuses.filter((s) => s === 402).length).toBeGreaterThan(0);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThan(0);
    expect(statuses.every((s) => s === 200 || s === 402)).toBe(true);
    await Promise.all(gateways.map((g) => g.runtime.learn.flush()));
    const db = await createDb({ url: env.DATABASE_URL });
    try {
      const summary = await db.usage.summary(org.id, new Date(Date.now() - 3_600_000));
      expect(summary.requests).toBe(statuses.filter((s) => s === 200).length);
      expect(summary.costUsd).toBeLessThanOrEqual(budget);
      const spend = await gateways[1]!.runtime.limiter.spend(org);
      expect(spend.reservedUsd).toBe(0);
      expect(spend.spentUsd).toBeLessThanOrEqual(budget);
    } finally {
      await db.close();
    }
  }, 60_000);
});
