import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type MockUpstream, startMockUpstream } from '@svc/mock-upstream';
import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { masterKey, startGateway, upstreamProviders } from './harness.js';

type Gateway = Awaited<ReturnType<typeof startGateway>>;

interface OutputLine {
  id: string;
  custom_id: string;
  response: { status_code: number; request_id: string; body: Record<string, unknown> } | null;
  error: unknown;
}

const clientOf = (gateway: Gateway) => new OpenAI({ baseURL: `${gateway.inferenceUrl}/v1`, apiKey: masterKey, maxRetries: 0 });

const chatLine = (customId: string, model: string) => ({ custom_id: customId, method: 'POST', url: '/v1/chat/completions', body: { model, messages: [{ role: 'user', content: `question ${customId}` }] } });

async function upload(client: OpenAI, lines: object[]): Promise<string> {
  const text = `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`;
  return (await client.files.create({ file: await toFile(Buffer.from(text), 'input.jsonl'), purpose: 'batch' })).id;
}

/** Retrieves the batch until `done` holds (every 100 ms, at most `timeoutMs`). */
async function waitFor(client: OpenAI, id: string, done: (batch: OpenAI.Batch) => boolean, timeoutMs = 30_000): Promise<OpenAI.Batch> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const batch = await client.batches.retrieve(id);
    if (done(batch)) return batch;
    if (Date.now() > deadline) throw new Error(`batch ${id} still ${batch.status} (${JSON.stringify(batch.request_counts)})`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function outputLines(client: OpenAI, fileId: string | null | undefined): Promise<OutputLine[]> {
  if (!fileId) return [];
  const text = await (await client.files.content(fileId)).text();
  return text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as OutputLine);
}

const ended = (batch: OpenAI.Batch) => ['completed', 'failed', 'cancelled', 'expired'].includes(batch.status);

describe('openai SDK client.batches against the gateway and the mock upstream', () => {
  let upstream: MockUpstream;
  let gateway: Gateway;
  let client: OpenAI;
  let chatModel: string;

  beforeAll(async () => {
    upstream = await startMockUpstream({ tokens: 5 });
    gateway = await startGateway({ ...upstreamProviders(upstream.url), SVC_BATCH_CONCURRENCY: '2', SVC_BATCH_NATIVE: '0' });
    client = clientOf(gateway);
    chatModel = gateway.runtime.catalog.list({ provider: 'openai', kind: 'chat' })[0]!.id;
  });
  afterAll(async () => {
    await gateway?.stop();
    await upstream?.close();
  });

  it('runs chat lines through the pipeline into an output file whose lines match, one ledger row per line', async () => {
    upstream.resetStats();
    const inputFileId = await upload(client, ['a', 'b', 'c'].map((id) => chatLine(id, chatModel)));
    const created = await client.batches.create({ input_file_id: inputFileId, endpoint: '/v1/chat/completions', completion_window: '24h', metadata: { job: 'e2e' } });
    expect(created).toMatchObject({ object: 'batch', status: 'validating', input_file_id: inputFileId, request_counts: { total: 3, completed: 0, failed: 0 }, metadata: { job: 'e2e' } });
    const batch = await waitFor(client, created.id, ended);
    expect(batch).toMatchObject({ status: 'completed', request_counts: { total: 3, completed: 3, failed: 0 }, error_file_id: null });
    expect(created.usage).toBeUndefined();
    expect(batch.in_progress_at).toBeGreaterThanOrEqual(batch.created_at);
    expect(batch.completed_at).toBeGreaterThanOrEqual(batch.finalizing_at!);
    const lines = await outputLines(client, batch.output_file_id);
    expect(lines.map((line) => line.custom_id)).toEqual(['a', 'b', 'c']);
    for (const line of lines) {
      expect(line).toMatchObject({ id: expect.stringMatching(/^batch_req_/), error: null, response: { status_code: 200, request_id: expect.stringMatching(/^req_/) } });
      expect(line.response!.body).toMatchObject({ object: 'chat.completion', choices: [{ message: { role: 'assistant' } }] });
    }
    // The upstream was asked each line's own question, once.
    expect(upstream.stats().byPath['/v1/chat/completions']).toBe(3);
    expect(JSON.stringify(upstream.stats().lastRequest?.body)).toMatch(/question [abc]/);
    await gateway.runtime.learn.flush();
    const rows = await gateway.runtime.db.usage.listByOrg((await gateway.runtime.db.orgs.getByName('default'))!.id, { limit: 100 });
    // One row per line, tagged with its batch: the costs page and GET .../spend/by-tag?tag=batch_id split spend by batch.
    for (const line of lines) expect(rows.filter((row) => row.requestId === line.response!.request_id)).toEqual([expect.objectContaining({ tags: { batch_id: batch.id } })]);
    // The batch's usage is its lines' tokens, summed, as the ledger counted them.
    const lineRows = rows.filter((row) => lines.some((line) => line.response!.request_id === row.requestId));
    const sum = (pick: (row: (typeof rows)[number]) => number) => lineRows.reduce((total, row) => total + pick(row), 0);
    expect(batch.usage).toMatchObject({ input_tokens: sum((row) => row.promptTokens), output_tokens: sum((row) => row.completionTokens), total_tokens: sum((row) => row.promptTokens + row.completionTokens) });
    expect(batch.usage!.output_tokens).toBeGreaterThan(0);
    expect((await client.files.retrieve(batch.output_file_id!)).purpose).toBe('batch_output');
    expect((await client.batches.list({ limit: 10 })).data.map((b) => b.id)).toContain(batch.id);
  });

  it('runs embedding lines; a bad body is that line’s 400 in the error file', async () => {
    upstream.resetStats();
    const line = (customId: string, input: unknown) => ({ custom_id: customId, method: 'POST', url: '/v1/embeddings', body: { model: 'text-embedding-3-small', input } });
    const inputFileId = await upload(client, [line('e1', 'first text'), line('e2', ['second', 'third']), line('bad', 42)]);
    const created = await client.batches.create({ input_file_id: inputFileId, endpoint: '/v1/embeddings', completion_window: '24h' });
    const batch = await waitFor(client, created.id, ended);
    expect(batch).toMatchObject({ status: 'completed', request_counts: { total: 3, completed: 2, failed: 1 } });
    const ok = await outputLines(client, batch.output_file_id);
    expect(ok.map((l) => [l.custom_id, (l.response!.body as { data: unknown[] }).data.length])).toEqual([
      ['e1', 1],
      ['e2', 2],
    ]);
    const failed = await outputLines(client, batch.error_file_id);
    expect(failed).toMatchObject([{ custom_id: 'bad', response: { status_code: 400, body: { error: { type: 'invalid_request_error', param: 'input' } } } }]);
    expect(upstream.stats().byPath['/v1/embeddings']).toBe(2);
    await gateway.runtime.learn.flush();
    const rows = await gateway.runtime.db.usage.listByOrg((await gateway.runtime.db.orgs.getByName('default'))!.id, { limit: 200 });
    for (const line of ok) expect(rows.find((row) => row.requestId === line.response!.request_id)?.tags).toEqual({ batch_id: batch.id });
  });

  it('runs /v1/responses lines as the Responses endpoint answers them: kept unless store is false, continued by previous_response_id', async () => {
    upstream.resetStats();
    const line = (customId: string, body: Record<string, unknown>) => ({ custom_id: customId, method: 'POST', url: '/v1/responses', body: { model: chatModel, ...body } });
    const inputFileId = await upload(client, [line('kept', { input: 'question kept' }), line('unkept', { input: 'question unkept', store: false }), line('bad', { input: 42 })]);
    const created = await client.batches.create({ input_file_id: inputFileId, endpoint: '/v1/responses', completion_window: '24h' });
    const batch = await waitFor(client, created.id, ended);
    expect(batch).toMatchObject({ status: 'completed', request_counts: { total: 3, completed: 2, failed: 1 } });
    const ok = await outputLines(client, batch.output_file_id);
    expect(ok.map((l) => l.custom_id)).toEqual(['kept', 'unkept']);
    for (const answered of ok) expect(answered.response!.body).toMatchObject({ object: 'response', status: 'completed', output: [expect.objectContaining({ type: 'message' })] });
    const [kept, unkept] = ok.map((l) => l.response!.body as { id: string });
    expect((await client.responses.retrieve(kept!.id)).id).toBe(kept!.id);
    await expect(client.responses.retrieve(unkept!.id)).rejects.toMatchObject({ status: 404 });
    // A kept line's answer continues interactively.
    const next = await client.responses.create({ model: chatModel, input: 'and then?', previous_response_id: kept!.id });
    expect(next.status).toBe('completed');
    expect(JSON.stringify(upstream.stats().lastRequest?.body)).toContain('question kept');
    expect(await outputLines(client, batch.error_file_id)).toMatchObject([{ custom_id: 'bad', response: { status_code: 400, body: { error: { type: 'invalid_request_error' } } } }]);
    expect(upstream.stats().byPath['/v1/chat/completions']).toBe(3);
  });

  it('reports a malformed input file as a failed batch with OpenAI’s errors, and refuses what is not a batch file', async () => {
    const inputFileId = await upload(client, [chatLine('x', chatModel), { custom_id: 'y', method: 'POST', url: '/v1/embeddings', body: {} }, chatLine('x', chatModel)]);
    const batch = await client.batches.create({ input_file_id: inputFileId, endpoint: '/v1/chat/completions', completion_window: '24h' });
    expect(batch.status).toBe('failed');
    expect(batch.failed_at).toBeGreaterThan(0);
    expect(batch.errors).toEqual({
      object: 'list',
      data: [
        { code: 'mismatched_endpoint', message: expect.any(String), param: 'url', line: 2 },
        { code: 'duplicate_custom_id', message: expect.any(String), param: 'custom_id', line: 3 },
      ],
    });
    const other = await client.files.create({ file: await toFile(Buffer.from('{}'), 'x.jsonl'), purpose: 'user_data' });
    await expect(client.batches.create({ input_file_id: other.id, endpoint: '/v1/chat/completions', completion_window: '24h' })).rejects.toMatchObject({ status: 400, error: { param: 'input_file_id' } });
    await expect(client.batches.create({ input_file_id: 'file-nope', endpoint: '/v1/chat/completions', completion_window: '24h' })).rejects.toMatchObject({ status: 404 });
    await expect(client.batches.create({ input_file_id: inputFileId, endpoint: '/v1/completions', completion_window: '24h' })).rejects.toMatchObject({ status: 400, error: { param: 'endpoint' } });
    await expect(client.batches.retrieve('batch_unknown')).rejects.toMatchObject({ status: 404 });
  });

  it('reads an input file of several 1 MiB parts a line at a time: lines cut by a part boundary, errors by their line number', async () => {
    const filler = 'é'.repeat(1000);
    const lines = Array.from({ length: 800 }, (_, index) => ({ custom_id: `p${index}`, method: 'POST', url: '/v1/chat/completions', body: { model: chatModel, messages: [{ role: 'user', content: filler }] } }));
    const text = `${[...lines.map((line) => JSON.stringify(line)), '{"cut', JSON.stringify(lines[5])].join('\n')}\n`;
    expect(Buffer.byteLength(text)).toBeGreaterThan(1.5 * 1024 * 1024);
    const file = await client.files.create({ file: await toFile(Buffer.from(text), 'parts.jsonl'), purpose: 'batch' });
    const batch = await client.batches.create({ input_file_id: file.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
    expect(batch.errors?.data).toEqual([
      { code: 'invalid_json_line', message: expect.any(String), param: null, line: 801 },
      { code: 'duplicate_custom_id', message: expect.any(String), param: 'custom_id', line: 802 },
    ]);
  });

  it('a batch past its completion window expires: the lines not run go to the error file as batch_expired', async () => {
    const { db } = gateway.runtime;
    const org = (await db.orgs.getByName('default'))!;
    const key = (await db.keys.list(org.id)).find((k) => k.kind === 'master')!;
    const now = Date.now();
    const id = `batch_expired_${now}`;
    await db.batches.create(
      { id, orgId: org.id, keyId: key.id, endpoint: '/v1/chat/completions', inputFileId: 'file-x', completionWindow: '24h', status: 'in_progress', metadata: null, errors: null, total: 2, createdAt: new Date(now - 86_400_000), expiresAt: new Date(now - 1) },
      [chatLine('late1', chatModel), chatLine('late2', chatModel)].map((line) => ({ customId: line.custom_id, body: line.body })),
    );
    const sent = upstream.stats().byPath['/v1/chat/completions'] ?? 0;
    const batch = await waitFor(client, id, ended);
    expect(batch).toMatchObject({ status: 'expired', output_file_id: null, request_counts: { total: 2, completed: 0, failed: 2 } });
    expect(batch.expired_at).toBeGreaterThan(0);
    expect(await outputLines(client, batch.error_file_id)).toMatchObject([
      { custom_id: 'late1', response: null, error: { code: 'batch_expired' } },
      { custom_id: 'late2', response: null, error: { code: 'batch_expired' } },
    ]);
    expect(upstream.stats().byPath['/v1/chat/completions'] ?? 0).toBe(sent);
  });

  it('runs as the submitting key: its organisation’s budget refuses the batch at creation, its scopes bound what it may submit', async () => {
    const { db, authenticator } = gateway.runtime;
    const org = await db.orgs.create({ name: `batch-budget-${Date.now()}`, monthlyBudgetUsd: 0.000_000_1 });
    const { secret } = await authenticator.issue({ orgId: org.id, scopes: ['inference:chat'] });
    const tenant = new OpenAI({ baseURL: `${gateway.inferenceUrl}/v1`, apiKey: secret, maxRetries: 0 });
    upstream.resetStats();
    const inputFileId = await upload(tenant, [chatLine('p1', chatModel), chatLine('p2', chatModel)]);
    await expect(tenant.batches.create({ input_file_id: inputFileId, endpoint: '/v1/chat/completions', completion_window: '24h' })).rejects.toMatchObject({ status: 402, error: { type: 'billing_error', code: 'budget_exceeded' } });
    expect((await tenant.batches.list()).data).toEqual([]);
    expect(upstream.stats().byPath['/v1/chat/completions'] ?? 0).toBe(0);
    await expect(tenant.batches.create({ input_file_id: inputFileId, endpoint: '/v1/embeddings', completion_window: '24h' })).rejects.toMatchObject({ status: 403, error: { code: 'insufficient_scopes' } });
  });

  it('a cancelled batch stops starting lines and reports which ran', async () => {
    upstream.configure({ latencyMs: 300 });
    try {
      const inputFileId = await upload(client, ['c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7', 'c8'].map((id) => chatLine(id, chatModel)));
      const created = await client.batches.create({ input_file_id: inputFileId, endpoint: '/v1/chat/completions', completion_window: '24h' });
      await waitFor(client, created.id, (b) => (b.request_counts?.completed ?? 0) >= 2);
      const cancelling = await client.batches.cancel(created.id);
      expect(cancelling.status).toBe('cancelling');
      expect(cancelling.cancelling_at).toBeGreaterThan(0);
      const batch = await waitFor(client, created.id, ended);
      expect(batch.status).toBe('cancelled');
      const ran = batch.request_counts!.completed;
      expect(ran).toBeGreaterThanOrEqual(2);
      expect(ran).toBeLessThan(8);
      const lines = await outputLines(client, batch.output_file_id);
      expect(lines.map((l) => l.custom_id)).toEqual(['c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7', 'c8'].slice(0, ran));
      await expect(client.batches.cancel(created.id)).resolves.toMatchObject({ status: 'cancelled' });
    } finally {
      upstream.configure({ latencyMs: 0 });
    }
  });
});

describe('a batch survives a restart of the gateway on the same store', () => {
  let upstream: MockUpstream;
  let dataDir: string;

  beforeAll(async () => {
    upstream = await startMockUpstream({ tokens: 5, latencyMs: 250 });
    dataDir = await mkdtemp(join(tmpdir(), 'svc-batch-restart-'));
  });
  afterAll(async () => {
    await upstream?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('does not run again the lines answered before the restart', async () => {
    const env = { ...upstreamProviders(upstream.url), SVC_DATA_DIR: dataDir, SVC_BATCH_CONCURRENCY: '1', SVC_BATCH_NATIVE: '0' };
    const first = await startGateway(env);
    const ids = ['r1', 'r2', 'r3', 'r4', 'r5', 'r6'];
    let batchId: string;
    let answeredBefore: OutputLine[];
    try {
      const client = clientOf(first);
      const model = first.runtime.catalog.list({ provider: 'openai', kind: 'chat' })[0]!.id;
      const inputFileId = await upload(client, ids.map((id) => chatLine(id, model)));
      batchId = (await client.batches.create({ input_file_id: inputFileId, endpoint: '/v1/chat/completions', completion_window: '24h' })).id;
      await waitFor(client, batchId, (b) => (b.request_counts?.completed ?? 0) >= 2);
    } finally {
      await first.stop();
    }
    const upstreamBefore = upstream.stats().byPath['/v1/chat/completions']!;
    const second = await startGateway(env);
    try {
      const stored = await second.runtime.db.batches.answeredLines(batchId);
      answeredBefore = stored.map((line) => line.result as unknown as OutputLine);
      expect(answeredBefore.length).toBeGreaterThanOrEqual(2);
      expect(answeredBefore.length).toBeLessThan(6);
      const client = clientOf(second);
      const batch = await waitFor(client, batchId, ended);
      expect(batch).toMatchObject({ status: 'completed', request_counts: { total: 6, completed: 6, failed: 0 } });
      const lines = await outputLines(client, batch.output_file_id);
      expect(lines.map((l) => l.custom_id)).toEqual(ids);
      // The lines answered before the restart kept their answers; only the others reached the upstream again.
      for (const before of answeredBefore) expect(lines.find((l) => l.custom_id === before.custom_id)).toEqual(before);
      const sentAfter = upstream.stats().byPath['/v1/chat/completions']! - upstreamBefore;
      expect(sentAfter).toBe(6 - answeredBefore.length);
      // At most the one line in flight at the stop was sent twice.
      expect(upstream.stats().byPath['/v1/chat/completions']).toBeLessThanOrEqual(7);
    } finally {
      await second.stop();
    }
  }, 120_000);
});

/** Two instances on one PostgreSQL: the lease gives each batch to one worker, so no line runs twice. */
describe.skipIf(!process.env.TEST_DATABASE_URL && process.env.CI !== 'true')('two instances sharing the store', () => {
  let upstream: MockUpstream;
  let gateways: Gateway[] = [];

  beforeAll(async () => {
    upstream = await startMockUpstream({ tokens: 5, latencyMs: 50 });
    const env = { ...upstreamProviders(upstream.url), DATABASE_URL: process.env.TEST_DATABASE_URL ?? '', SVC_BATCH_CONCURRENCY: '2', SVC_BATCH_NATIVE: '0' };
    gateways = await Promise.all([startGateway(env), startGateway(env)]);
  });
  afterAll(async () => {
    await Promise.all(gateways.map((g) => g.stop()));
    await upstream?.close();
  });

  it('runs every line of their batches once', async () => {
    const clients = gateways.map(clientOf);
    const model = gateways[0]!.runtime.catalog.list({ provider: 'openai', kind: 'chat' })[0]!.id;
    const created = await Promise.all(
      clients.map(async (client, i) => {
        const inputFileId = await upload(client, ['s1', 's2', 's3', 's4', 's5', 's6'].map((id) => chatLine(`${id}-${i}`, model)));
        return client.batches.create({ input_file_id: inputFileId, endpoint: '/v1/chat/completions', completion_window: '24h' });
      }),
    );
    for (const batch of created) expect(await waitFor(clients[0]!, batch.id, ended)).toMatchObject({ status: 'completed', request_counts: { total: 6, completed: 6 } });
    expect(upstream.stats().byPath['/v1/chat/completions']).toBe(12);
  }, 60_000);
});
