import { BatchEstimate, takeBatchHold } from '@svc/pipeline';
import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway } from './harness.js';

type Gateway = Awaited<ReturnType<typeof startGateway>>;

const MODEL = 'mock/mock-quality';
const MAX_TOKENS = 1000;
/** mock/mock-quality's prices, USD per million tokens (input, output). */
const PRICE = { input: 1, output: 4 };

const body = (i: number) => ({ model: MODEL, messages: [{ role: 'user', content: `batch line ${i}` }], max_tokens: MAX_TOKENS });

/** A line's estimate by the documented rule: its body's JSON, a token per 4 characters, plus `max_tokens`, at the model's interactive price. */
const lineEstimate = (i: number) => (Math.ceil(JSON.stringify(body(i)).length / 4) * PRICE.input + MAX_TOKENS * PRICE.output) / 1e6;
const estimate = (lines: number) => Array.from({ length: lines }, (_, i) => lineEstimate(i)).reduce((a, b) => a + b, 0);

async function submit(client: OpenAI, lines: number): Promise<OpenAI.Batch> {
  const text = Array.from({ length: lines }, (_, i) => JSON.stringify({ custom_id: `line-${i}`, method: 'POST', url: '/v1/chat/completions', body: body(i) })).join('\n');
  const file = await client.files.create({ file: await toFile(Buffer.from(`${text}\n`), 'input.jsonl'), purpose: 'batch' });
  return client.batches.create({ input_file_id: file.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
}

async function waitFor(client: OpenAI, id: string, status: string): Promise<OpenAI.Batch> {
  for (const deadline = Date.now() + 30_000; ; ) {
    const batch = await client.batches.retrieve(id);
    if (batch.status === status) return batch;
    if (Date.now() > deadline) throw new Error(`batch ${id} still ${batch.status}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Issue #30 part 4: a batch holds its estimated cost against the organisation's budget from its
 * creation (gateway-run lines here: the mock provider has no batch API), is refused at creation
 * when the budget cannot hold it, runs its lines against the hold, and gives the rest back when
 * it ends.
 */
describe('the budget a gateway-run batch holds from its creation (official openai SDK)', () => {
  let gateway: Gateway;

  beforeAll(async () => {
    gateway = await startGateway({ SVC_MOCK_PROVIDER: '1', SVC_CACHE_TTL_SECS: '0', SVC_SEMANTIC_CACHE: '0', SVC_BATCH_CONCURRENCY: '4' });
  });
  afterAll(async () => {
    await gateway?.stop();
  });

  async function orgClient(limits: { monthlyBudgetUsd: number; rpmLimit?: number }) {
    const org = await gateway.runtime.db.orgs.create({ name: `batch-budget-${Date.now()}-${Math.random()}`, defaultIntelligenceMode: 'proxy', ...limits });
    const key = (await gateway.runtime.authenticator.issue({ orgId: org.id, scopes: ['inference:chat'] })).secret;
    return { org, key, client: new OpenAI({ baseURL: `${gateway.inferenceUrl}/v1`, apiKey: key, maxRetries: 0 }) };
  }

  const billed = async (orgId: string, batchId: string) => {
    await gateway.runtime.learn.flush();
    const rows = (await gateway.runtime.db.usage.listByOrg(orgId)).filter((row) => row.tags?.batch_id === batchId);
    return { rows: rows.length, usd: rows.reduce((sum, row) => sum + row.costUsd, 0) };
  };

  it('refuses at creation a batch whose estimate the budget cannot hold, with the budget error', async () => {
    const { client } = await orgClient({ monthlyBudgetUsd: estimate(20) * 0.9 });
    const refused = await submit(client, 20).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(OpenAI.APIError);
    expect((refused as InstanceType<typeof OpenAI.APIError>).status).toBe(402);
    expect((refused as InstanceType<typeof OpenAI.APIError>).code).toBe('budget_exceeded');
    expect((await client.batches.list()).data).toEqual([]);
  });

  it('runs every line of a batch the budget just holds, and ends with reserved 0 and the spend equal to what was billed', async () => {
    const lines = 20;
    // Room for the batch and half a line: a line checked against the budget again would be refused.
    const { org, client } = await orgClient({ monthlyBudgetUsd: estimate(lines) + lineEstimate(0) / 2 });
    const batch = await submit(client, lines);
    const done = await waitFor(client, batch.id, 'completed');
    expect(done.request_counts).toMatchObject({ total: lines, completed: lines, failed: 0 });
    const ledger = await billed(org.id, batch.id);
    expect(ledger.rows).toBe(lines);
    const spend = await gateway.runtime.limiter.spend(org);
    expect(spend.reservedUsd).toBe(0);
    expect(spend.spentUsd).toBeCloseTo(ledger.usd, 5);
  }, 40_000);

  it('holds the rest of a running batch against interactive requests, and gives it back when the batch is cancelled', async () => {
    const lines = 40;
    const budget = estimate(lines) * 1.25;
    // RPM 20: the batch takes half (10 lines), then a line every 3 s, so it is still running below.
    const { org, key, client } = await orgClient({ monthlyBudgetUsd: budget, rpmLimit: 20 });
    const batch = await submit(client, lines);
    const held = await gateway.runtime.limiter.spend(org);
    expect(held.reservedUsd).toBeGreaterThan(estimate(lines) * 0.6);
    // An interactive request the budget less the batch's hold cannot cover is refused; without the hold it would fit.
    const interactive = (maxTokens: number) =>
      fetch(`${gateway.inferenceUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: MODEL, max_tokens: maxTokens, messages: [{ role: 'user', content: 'interactive' }] }),
      }).then(async (response) => ({ status: response.status, body: (await response.json()) as { error?: { code?: string } } }));
    const large = Math.floor(((budget - estimate(lines) * 0.5) * 1e6) / PRICE.output);
    const refused = await interactive(large);
    expect(refused.status).toBe(402);
    expect(refused.body.error?.code).toBe('budget_exceeded');
    expect((await interactive(50)).status).toBe(200);
    const running = await client.batches.retrieve(batch.id);
    expect(running.request_counts!.completed).toBeLessThan(lines);

    await client.batches.cancel(batch.id);
    const cancelled = await waitFor(client, batch.id, 'cancelled');
    const ledger = await billed(org.id, batch.id);
    expect(ledger.rows).toBe(cancelled.request_counts!.completed);
    const spend = await gateway.runtime.limiter.spend(org);
    expect(spend.reservedUsd).toBe(0);
    // The spend is the batch's billed lines and the one interactive answer: the hold's rest was given back.
    const interactiveUsd = spend.spentUsd - ledger.usd;
    expect(interactiveUsd).toBeGreaterThan(0);
    expect(interactiveUsd).toBeLessThan(lineEstimate(0));
  }, 60_000);

  it('gives back the hold of a batch an instance of the previous release ended without it (rolling deploy)', async () => {
    const { org } = await orgClient({ monthlyBudgetUsd: estimate(10) * 2 });
    const { record } = await gateway.runtime.authenticator.issue({ orgId: org.id, scopes: ['inference:chat'] });
    const caller = await gateway.runtime.authenticator.callerOfKey(record.id);
    const lineEstimates = new BatchEstimate({ catalog: gateway.runtime.catalog }, caller, '/v1/chat/completions');
    for (let i = 0; i < 10; i++) lineEstimates.add(body(i));
    // What this release stores at creation; the previous release then works the batch and ends it, the hold untouched.
    const hold = await takeBatchHold(gateway.runtime.limiter, caller, lineEstimates, 10);
    expect((await gateway.runtime.limiter.spend(org)).reservedUsd).toBeCloseTo(estimate(10), 5);
    await gateway.runtime.db.batches.create(
      {
        id: `batch_left_${Date.now()}`,
        orgId: org.id,
        keyId: record.id,
        endpoint: '/v1/chat/completions',
        inputFileId: 'file-input',
        completionWindow: '24h',
        status: 'completed',
        metadata: null,
        errors: null,
        total: 10,
        createdAt: new Date(),
        expiresAt: new Date(Date.now() + 86_400_000),
        hold,
      },
      [],
    );
    for (const deadline = Date.now() + 20_000; (await gateway.runtime.limiter.spend(org)).reservedUsd > 0; ) {
      if (Date.now() > deadline) throw new Error('the hold of a batch ended by the previous release was not given back');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect((await gateway.runtime.limiter.spend(org)).spentUsd).toBe(0);
  }, 30_000);
});
