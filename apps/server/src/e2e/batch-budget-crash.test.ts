import { Limiter } from '@svc/billing';
import { createDb } from '@svc/db';
import { createRedisKv } from '@svc/kv';
import { afterAll, describe, expect, it } from 'vitest';
import { restartableGateway, submitChatBatch } from './gateway-process.js';
import { masterKey } from './harness.js';

const LINES = 48;
const MAX_TOKENS = 20_000;
/** A line's estimate (mock/mock-speed, $0.2 per million output tokens): far above what a line costs, so a share given back twice or held on shows. */
const SHARE = (MAX_TOKENS * 0.2) / 1e6;
const redisUrl = process.env.TEST_REDIS_URL;

/**
 * Issue #30 part 4: the budget a batch holds is in the shared Kv and the hold's progress in the
 * store, so a kill -9 mid-batch neither leaves it held nor gives a share of it back twice: once
 * the batch completed after the restart, nothing is reserved and the month's spend is what the
 * ledger billed.
 */
describe.runIf(redisUrl)('a batch holding its budget across a kill -9', () => {
  let gateway: Awaited<ReturnType<typeof restartableGateway>>;
  afterAll(async () => {
    await gateway?.remove();
  });

  const counts = async (url: string, id: string) => (await (await fetch(`${url}/v1/batches/${id}`, { headers: { authorization: `Bearer ${masterKey}` } })).json()) as { status: string; request_counts: { completed: number } };

  async function waitFor(url: string, id: string, done: (batch: Awaited<ReturnType<typeof counts>>) => boolean) {
    for (const deadline = Date.now() + 120_000; ; await new Promise((resolve) => setTimeout(resolve, 50))) {
      const batch = await counts(url, id);
      if (done(batch)) return batch;
      if (Date.now() > deadline) throw new Error(`batch ${id} still ${batch.status}`);
    }
  }

  /** Gives the default organisation a month budget (the store is free between two gateway processes). */
  async function budgetDefaultOrg(budget: number) {
    const db = await createDb({ dataDir: gateway.dataDir });
    try {
      const org = (await db.orgs.getByName('default'))!;
      await db.orgs.update(org.id, { monthlyBudgetUsd: budget });
      return { ...org, monthlyBudgetUsd: budget };
    } finally {
      await db.close();
    }
  }

  async function billedUsd(batchId: string) {
    const db = await createDb({ dataDir: gateway.dataDir });
    try {
      const org = await db.orgs.getByName('default');
      const rows = (await db.usage.listByOrg(org!.id, { limit: 100_000 })).filter((row) => row.tags?.batch_id === batchId);
      return { rows: rows.length, usd: rows.reduce((sum, row) => sum + row.costUsd, 0) };
    } finally {
      await db.close();
    }
  }

  it('ends with nothing reserved and the spend equal to the ledger', async () => {
    gateway = await restartableGateway({ REDIS_URL: redisUrl!, SVC_MOCK_LATENCY_MS: '100', SVC_BATCH_CONCURRENCY: '8', SVC_BATCH_LEASE_MS: '3000', SVC_LEARN_FLUSH_MS: '200' });
    await gateway.start();
    await gateway.stop('SIGTERM');
    const org = await budgetDefaultOrg(5);
    let url = await gateway.start();
    const lines = Array.from({ length: LINES }, (_, i) => ({ custom_id: `line-${i}`, method: 'POST', url: '/v1/chat/completions', body: { model: 'mock/mock-speed', max_tokens: MAX_TOKENS, messages: [{ role: 'user', content: `question ${i}` }] } }));
    const id = await submitChatBatch(url, lines);
    await waitFor(url, id, (batch) => batch.request_counts.completed >= 16);
    await gateway.stop('SIGKILL');
    url = await gateway.start();
    const batch = await waitFor(url, id, (b) => ['completed', 'failed', 'cancelled', 'expired'].includes(b.status));
    expect(batch).toMatchObject({ status: 'completed', request_counts: { completed: LINES } });
    await gateway.stop('SIGTERM');

    const ledger = await billedUsd(id);
    expect(ledger.rows).toBe(LINES);
    const kv = createRedisKv({ url: redisUrl! });
    try {
      const spend = await new Limiter({ kv }).spend(org);
      expect(spend.reservedUsd).toBeLessThan(SHARE / 4);
      expect(Math.abs(spend.spentUsd - ledger.usd)).toBeLessThan(SHARE / 4);
    } finally {
      await kv.close();
    }
  }, 240_000);
});
