import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { type MockUpstream, startMockUpstream } from '@svc/mock-upstream';
import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCall, masterKey, startGateway, upstreamProviders } from './harness.js';

type Gateway = Awaited<ReturnType<typeof startGateway>>;

interface OutputLine {
  custom_id: string;
  response: { status_code: number; request_id: string; body: { model: string; svc_metadata: { cost_usd: number; baseline_cost_usd: number; savings_usd: number } } };
}

const native = { SVC_BATCH_NATIVE_POLL_MS: '200', SVC_BATCH_CONCURRENCY: '2' };
const chatLine = (customId: string, model: string) => ({ custom_id: customId, method: 'POST', url: '/v1/chat/completions', body: { model, messages: [{ role: 'user', content: `question ${customId}` }], max_tokens: 50 } });

async function submit(client: OpenAI, lines: object[]): Promise<OpenAI.Batch> {
  const text = `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`;
  const file = await client.files.create({ file: await toFile(Buffer.from(text), 'input.jsonl'), purpose: 'batch' });
  return client.batches.create({ input_file_id: file.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
}

async function waitFor(client: OpenAI, id: string, status: string, timeoutMs = 30_000): Promise<OpenAI.Batch> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const batch = await client.batches.retrieve(id);
    if (batch.status === status) return batch;
    if (Date.now() > deadline) throw new Error(`batch ${id} still ${batch.status}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function outputLines(client: OpenAI, fileId: string | null | undefined): Promise<OutputLine[]> {
  if (!fileId) return [];
  return (await (await client.files.content(fileId)).text())
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as OutputLine);
}

/** The Message Batch once ended (or after `timeoutMs`) and its results. */
async function endedMessageBatch(anthropic: Anthropic, id: string, timeoutMs = 30_000) {
  let batch = await anthropic.messages.batches.retrieve(id);
  for (const deadline = Date.now() + timeoutMs; batch.processing_status !== 'ended' && Date.now() < deadline; ) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    batch = await anthropic.messages.batches.retrieve(id);
  }
  const results = [];
  for await (const result of await anthropic.messages.batches.results(id)) results.push(result);
  return { batch, results };
}

async function ledgerRows(gateway: Gateway, batchId: string) {
  await gateway.runtime.learn.flush();
  const org = await gateway.runtime.db.orgs.getByName('default');
  return (await gateway.runtime.db.usage.listByOrg(org!.id)).filter((row) => row.tags?.batch_id === batchId);
}

describe('native provider batches through the gateway (official SDKs, mock upstream)', () => {
  let upstream: MockUpstream;
  let gateway: Gateway;
  let openai: OpenAI;
  let openaiModel: string;

  beforeAll(async () => {
    upstream = await startMockUpstream({ tokens: 5, batchPolls: 2 });
    gateway = await startGateway({ ...upstreamProviders(upstream.url), ...native });
    openai = new OpenAI({ baseURL: `${gateway.inferenceUrl}/v1`, apiKey: masterKey, maxRetries: 0 });
    openaiModel = gateway.runtime.catalog.list({ provider: 'openai', kind: 'chat' })[0]!.id;
  });
  afterAll(async () => {
    await gateway?.stop();
    await upstream?.close();
  });

  it('sends the named-model lines to OpenAI as one batch at half price, runs svc/auto lines itself, one ledger row a line', async () => {
    upstream.resetStats();
    const created = await submit(openai, [chatLine('n1', openaiModel), chatLine('auto', 'svc/auto'), chatLine('n2', openaiModel)]);
    const batch = await waitFor(openai, created.id, 'completed');
    expect(batch.request_counts).toEqual({ total: 3, completed: 3, failed: 0 });
    const stats = upstream.stats().byPath;
    expect(stats['/v1/batches']).toBe(1);
    expect(stats['/v1/files']).toBe(1);
    const output = await outputLines(openai, batch.output_file_id);
    expect(output.map((line) => line.custom_id)).toEqual(['n1', 'auto', 'n2']);
    for (const line of output.filter((entry) => entry.custom_id !== 'auto')) {
      const metadata = line.response.body.svc_metadata;
      expect(metadata.cost_usd).toBeGreaterThan(0);
      expect(metadata.cost_usd).toBeCloseTo(metadata.baseline_cost_usd / 2, 8);
    }
    const rows = await ledgerRows(gateway, batch.id);
    expect(rows.map((row) => row.requestId).sort()).toEqual(output.map((line) => line.response.request_id).sort());

    // The saving against interactive prices (the native lines'; the svc/auto line's savings_usd is routing's, against the flagship):
    // on the batch object (svc extension) and in the spend report by batch.
    const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
    const cost = sum(output.map((line) => line.response.body.svc_metadata.cost_usd));
    const saved = sum(output.filter((line) => line.custom_id !== 'auto').map((line) => line.response.body.svc_metadata.savings_usd));
    expect(saved).toBeGreaterThan(0);
    const retrieved = (await openai.batches.retrieve(batch.id)) as OpenAI.Batch & { svc_metadata: Record<string, number> };
    expect(retrieved.svc_metadata.billed_lines).toBe(3);
    expect(retrieved.svc_metadata.cost_usd).toBeCloseTo(cost, 9);
    expect(retrieved.svc_metadata.savings_usd).toBeCloseTo(saved, 9);
    expect(retrieved.svc_metadata.interactive_cost_usd).toBeCloseTo(cost + saved, 9);
    expect(rows.filter((row) => row.interactiveCostUsd !== null)).toHaveLength(2);
    const org = await gateway.runtime.db.orgs.getByName('default');
    const report = await adminCall<{ data: { value: string; requests: number; cost_usd: number; savings_usd: number }[] }>(gateway.controlUrl, 'GET', `/v1/admin/orgs/${org!.id}/spend/by-tag?tag=batch_id`);
    expect(report.data.find((group) => group.value === batch.id)).toMatchObject({ requests: 3, cost_usd: expect.closeTo(cost, 9), savings_usd: expect.closeTo(saved, 9) });
  }, 60_000);

  it('sends Anthropic Message Batch requests to Anthropic as one Message Batch', async () => {
    upstream.resetStats();
    const anthropic = new Anthropic({ baseURL: gateway.inferenceUrl, apiKey: masterKey, maxRetries: 0 });
    const model = gateway.runtime.catalog.list({ provider: 'anthropic', kind: 'chat' })[0]!.id;
    const params = (text: string) => ({ model, max_tokens: 50, messages: [{ role: 'user' as const, content: text }] });
    const created = await anthropic.messages.batches.create({ requests: [{ custom_id: 'a', params: params('one') }, { custom_id: 'b', params: params('two') }] });
    const { batch, results } = await endedMessageBatch(anthropic, created.id);
    expect(batch.request_counts).toMatchObject({ succeeded: 2, errored: 0, processing: 0 });
    expect(upstream.stats().byPath['/v1/messages/batches']).toBe(1);
    expect(upstream.stats().byPath['/v1/messages']).toBeUndefined();
    expect(results.map((result) => [result.custom_id, result.result.type])).toEqual([['a', 'succeeded'], ['b', 'succeeded']]);
  }, 60_000);

  it('a cancelled native batch reports exactly the lines its provider ran', async () => {
    upstream.configure({ batchPolls: 1000 });
    try {
      const created = await submit(openai, ['c1', 'c2', 'c3', 'c4'].map((id) => chatLine(id, openaiModel)));
      await new Promise((resolve) => setTimeout(resolve, 600));
      await openai.batches.cancel(created.id);
      const batch = await waitFor(openai, created.id, 'cancelled');
      const output = await outputLines(openai, batch.output_file_id);
      // Each poll ran a share of the lines (1 of 4 per 250 polls at most): the lines it ran are those answered.
      expect(output.length).toBeGreaterThan(0);
      expect(output.length).toBeLessThan(4);
      expect(batch.request_counts?.completed).toBe(output.length);
      expect((await ledgerRows(gateway, batch.id)).length).toBe(output.length);
    } finally {
      upstream.configure({ batchPolls: 2 });
    }
  }, 60_000);
});

describe('a native batch in flight survives a restart', () => {
  it('is taken up by the next instance: polled, not submitted again, every line answered and billed once', async () => {
    const upstream = await startMockUpstream({ tokens: 5, batchPolls: 1000 });
    const dataDir = await mkdtemp(join(tmpdir(), 'svc-native-batch-'));
    try {
      const env = { ...upstreamProviders(upstream.url), ...native, SVC_DATA_DIR: dataDir };
      const first = await startGateway(env);
      const model = first.runtime.catalog.list({ provider: 'openai', kind: 'chat' })[0]!.id;
      const client = (gateway: Gateway) => new OpenAI({ baseURL: `${gateway.inferenceUrl}/v1`, apiKey: masterKey, maxRetries: 0 });
      const created = await submit(client(first), ['r1', 'r2', 'r3'].map((id) => chatLine(id, model)));
      for (const deadline = Date.now() + 10_000; !upstream.stats().byPath['/v1/batches'] && Date.now() < deadline; ) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(upstream.stats().byPath['/v1/batches']).toBe(1);
      expect((await client(first).batches.retrieve(created.id)).status).toBe('in_progress');
      await first.stop();
      upstream.configure({ batchPolls: 1 });
      const second = await startGateway(env);
      try {
        const batch = await waitFor(client(second), created.id, 'completed');
        expect(upstream.stats().byPath['/v1/batches']).toBe(1);
        const output = await outputLines(client(second), batch.output_file_id);
        expect(output.map((line) => line.custom_id)).toEqual(['r1', 'r2', 'r3']);
        const rows = await ledgerRows(second, batch.id);
        expect(rows.map((row) => row.requestId).sort()).toEqual(output.map((line) => line.response.request_id).sort());
      } finally {
        await second.stop();
      }
    } finally {
      await upstream.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});

describe('the key that submitted a native batch', () => {
  /** Submits three lines with OpenAI keys `before`, stops, and works the batch on with `after`: the batch completed, the upstream's counts. */
  async function acrossRestart(before: string, after: string) {
    const upstream = await startMockUpstream({ tokens: 5, batchPolls: 1000 });
    const dataDir = await mkdtemp(join(tmpdir(), 'svc-native-key-'));
    try {
      const env = { ...upstreamProviders(upstream.url), ...native, SVC_DATA_DIR: dataDir };
      const first = await startGateway({ ...env, OPENAI_API_KEY: before });
      const model = first.runtime.catalog.list({ provider: 'openai', kind: 'chat' })[0]!.id;
      const client = (gateway: Gateway) => new OpenAI({ baseURL: `${gateway.inferenceUrl}/v1`, apiKey: masterKey, maxRetries: 0 });
      const created = await submit(client(first), ['k1', 'k2', 'k3'].map((id) => chatLine(id, model)));
      for (const deadline = Date.now() + 10_000; !upstream.stats().byPath['/v1/batches'] && Date.now() < deadline; ) await new Promise((resolve) => setTimeout(resolve, 50));
      await first.stop();
      upstream.configure({ batchPolls: 1 });
      const second = await startGateway({ ...env, OPENAI_API_KEY: after });
      try {
        const batch = await waitFor(client(second), created.id, 'completed');
        const output = await outputLines(client(second), batch.output_file_id);
        const rows = await ledgerRows(second, batch.id);
        return { batch, output, rows, stats: upstream.stats().byPath };
      } finally {
        await second.stop();
      }
    } finally {
      await upstream.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  }

  it('is found by its fingerprint after the keys were reordered: polled with it, not submitted again', async () => {
    const { output, rows, stats } = await acrossRestart('sk-pool-a, sk-pool-b', 'sk-pool-b, sk-pool-a');
    expect(stats['/v1/batches']).toBe(1);
    expect(stats['/v1/chat/completions']).toBeUndefined();
    expect(output.map((line) => line.custom_id)).toEqual(['k1', 'k2', 'k3']);
    expect(rows.filter((row) => row.interactiveCostUsd !== null)).toHaveLength(3);
  }, 90_000);

  it('once removed from the pool, its part is given up: the lines run through the gateway, each answered and billed once', async () => {
    const { output, rows, stats } = await acrossRestart('sk-pool-a', 'sk-pool-c');
    expect(stats['/v1/batches']).toBe(1);
    expect(stats['/v1/chat/completions']).toBe(3);
    expect(output.map((line) => line.custom_id)).toEqual(['k1', 'k2', 'k3']);
    expect(rows.map((row) => row.requestId).sort()).toEqual(output.map((line) => line.response.request_id).sort());
    expect(rows.every((row) => row.interactiveCostUsd === null)).toBe(true);
  }, 90_000);
});

describe('a native submission whose answer was lost', () => {
  it('finds the batch the provider accepted (by the part id in its metadata) and polls it: one upstream batch, no line run twice', async () => {
    const upstream = await startMockUpstream({ tokens: 5, batchPolls: 2, loseBatchCreates: 1 });
    const gateway = await startGateway({ ...upstreamProviders(upstream.url), ...native });
    try {
      const client = new OpenAI({ baseURL: `${gateway.inferenceUrl}/v1`, apiKey: masterKey, maxRetries: 0 });
      const model = gateway.runtime.catalog.list({ provider: 'openai', kind: 'chat' })[0]!.id;
      const created = await submit(client, ['l1', 'l2'].map((id) => chatLine(id, model)));
      const batch = await waitFor(client, created.id, 'completed');
      const output = await outputLines(client, batch.output_file_id);
      expect(output.map((line) => line.custom_id)).toEqual(['l1', 'l2']);
      // The upstream holds one batch, tagged with the gateway's part id; no line went through the interactive path.
      const listed = (await (await fetch(`${upstream.url}/v1/batches`, { headers: { authorization: 'Bearer sk-upstream-openai' } })).json()) as { data: { metadata: Record<string, string> }[] };
      expect(listed.data).toHaveLength(1);
      expect(listed.data[0]!.metadata.svc_part).toMatch(/^nb_/);
      expect(upstream.stats().byPath['/v1/chat/completions']).toBeUndefined();
      expect((await ledgerRows(gateway, batch.id)).filter((row) => row.interactiveCostUsd !== null)).toHaveLength(2);
    } finally {
      await gateway.stop();
      await upstream.close();
    }
  }, 60_000);

  /** A gateway on a mock upstream with `behaviour`, an Anthropic client of it, and `params` naming an Anthropic model; both stopped after `run`. */
  async function withAnthropic(behaviour: Parameters<typeof startMockUpstream>[0], run: (context: { upstream: MockUpstream; gateway: Gateway; anthropic: Anthropic; params: (text: string) => Anthropic.MessageCreateParamsNonStreaming }) => Promise<void>) {
    const upstream = await startMockUpstream(behaviour);
    const gateway = await startGateway({ ...upstreamProviders(upstream.url), ...native });
    try {
      const anthropic = new Anthropic({ baseURL: gateway.inferenceUrl, apiKey: masterKey, maxRetries: 0 });
      const model = gateway.runtime.catalog.list({ provider: 'anthropic', kind: 'chat' })[0]!.id;
      await run({ upstream, gateway, anthropic, params: (text) => ({ model, max_tokens: 50, messages: [{ role: 'user', content: text }] }) });
    } finally {
      await gateway.stop();
      await upstream.close();
    }
  }

  const upstreamKey = { 'content-type': 'application/json', 'x-api-key': 'sk-upstream-anthropic' };

  it('finds the Message Batch Anthropic accepted (same size, since the submission began, its results carrying the part id) and polls it: one upstream Message Batch, every line answered once', async () => {
    await withAnthropic({ tokens: 5, batchPolls: 2, loseBatchCreates: 1 }, async ({ upstream, gateway, anthropic, params }) => {
      const created = await anthropic.messages.batches.create({ requests: [{ custom_id: 'x1', params: params('one') }, { custom_id: 'x2', params: params('two') }] });
      const { batch, results } = await endedMessageBatch(anthropic, created.id, 60_000);
      expect(batch.request_counts).toMatchObject({ succeeded: 2, errored: 0, processing: 0 });
      // The user's custom ids come back as sent; upstream, each request carried the part id.
      expect(results.map((result) => [result.custom_id, result.result.type]).sort()).toEqual([['x1', 'succeeded'], ['x2', 'succeeded']]);
      const listed = (await (await fetch(`${upstream.url}/v1/messages/batches`, { headers: upstreamKey })).json()) as { data: { id: string; request_counts: { succeeded: number } }[] };
      expect(listed.data).toHaveLength(1);
      expect(listed.data[0]!.request_counts.succeeded).toBe(2);
      const upstreamResults = (await (await fetch(`${upstream.url}/v1/messages/batches/${listed.data[0]!.id}/results`, { headers: upstreamKey })).text()).trim().split('\n');
      expect(upstreamResults.map((line) => (JSON.parse(line) as { custom_id: string }).custom_id)).toEqual([expect.stringMatching(/^line-0-nb_/), expect.stringMatching(/^line-1-nb_/)]);
      expect(upstream.stats().byPath['/v1/messages']).toBeUndefined();
      expect((await ledgerRows(gateway, created.id)).filter((row) => row.interactiveCostUsd !== null)).toHaveLength(2);
    });
  }, 120_000);

  it('a candidate that is another client\'s Message Batch (same key, same size, newer) is rejected by its results and never cancelled; the part\'s own is then found', async () => {
    await withAnthropic({ tokens: 5, batchPolls: 2, loseBatchCreates: 1, batchCreateDelayMs: 2_000 }, async ({ upstream, gateway, anthropic, params }) => {
      const created = await anthropic.messages.batches.create({ requests: [{ custom_id: 'y1', params: params('one') }, { custom_id: 'y2', params: params('two') }] });
      // While the gateway's create waits for its (lost) answer, another client of the same key creates a Message Batch as large.
      for (const deadline = Date.now() + 10_000; !upstream.stats().byPath['/v1/messages/batches'] && Date.now() < deadline; ) await new Promise((resolve) => setTimeout(resolve, 20));
      const foreign = fetch(`${upstream.url}/v1/messages/batches`, { method: 'POST', headers: upstreamKey, body: JSON.stringify({ requests: ['f0', 'f1'].map((id) => ({ custom_id: id, params: params(id) })) }) });
      const { batch, results } = await endedMessageBatch(anthropic, created.id, 60_000);
      expect(batch.request_counts).toMatchObject({ succeeded: 2, errored: 0, processing: 0 });
      expect(results.map((result) => [result.custom_id, result.result.type]).sort()).toEqual([['y1', 'succeeded'], ['y2', 'succeeded']]);
      const foreignId = ((await (await foreign).json()) as { id: string }).id;
      const listed = (await (await fetch(`${upstream.url}/v1/messages/batches`, { headers: upstreamKey })).json()) as { data: { id: string; processing_status: string; cancel_initiated_at: string | null }[] };
      expect(listed.data).toHaveLength(2);
      // The foreign batch was taken up and polled to its end (only a retrieve advances the mock's batches), then left as it was: never cancelled.
      expect(listed.data.find((entry) => entry.id === foreignId)).toMatchObject({ processing_status: 'ended', cancel_initiated_at: null });
      expect(upstream.stats().byPath['/v1/messages']).toBeUndefined();
      expect((await ledgerRows(gateway, created.id)).filter((row) => row.interactiveCostUsd !== null)).toHaveLength(2);
    });
  }, 120_000);
});
