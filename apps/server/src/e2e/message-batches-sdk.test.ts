import Anthropic from '@anthropic-ai/sdk';
import { type MockUpstream, startMockUpstream } from '@svc/mock-upstream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { masterKey, startGateway, upstreamProviders } from './harness.js';

type Gateway = Awaited<ReturnType<typeof startGateway>>;

/** Retrieves the Message Batch until it has ended (every 100 ms, at most 30 s). */
async function untilEnded(client: Anthropic, id: string): Promise<Anthropic.Messages.MessageBatch> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const batch = await client.messages.batches.retrieve(id);
    if (batch.processing_status === 'ended') return batch;
    if (Date.now() > deadline) throw new Error(`message batch ${id} still ${batch.processing_status}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function results(client: Anthropic, id: string): Promise<Anthropic.Messages.MessageBatchIndividualResponse[]> {
  const out: Anthropic.Messages.MessageBatchIndividualResponse[] = [];
  for await (const entry of await client.messages.batches.results(id)) out.push(entry);
  return out;
}

describe('@anthropic-ai/sdk client.messages.batches against the gateway and the mock upstream', () => {
  let upstream: MockUpstream;
  let gateway: Gateway;
  let client: Anthropic;
  let model: string;

  beforeAll(async () => {
    upstream = await startMockUpstream({ tokens: 5 });
    gateway = await startGateway({ ...upstreamProviders(upstream.url), SVC_BATCH_CONCURRENCY: '2', SVC_BATCH_NATIVE: '0' });
    client = new Anthropic({ baseURL: gateway.inferenceUrl, apiKey: masterKey, maxRetries: 0 });
    model = gateway.runtime.catalog.list({ provider: 'anthropic', kind: 'chat' })[0]!.id;
  });
  afterAll(async () => {
    await gateway?.stop();
    await upstream?.close();
  });

  const request = (customId: string, params: Record<string, unknown> = {}) => ({
    custom_id: customId,
    params: { model, max_tokens: 64, messages: [{ role: 'user' as const, content: `question ${customId}` }], ...params },
  });

  it('creates, runs through the Anthropic upstream, lists, serves results and deletes a Message Batch', async () => {
    upstream.resetStats();
    const created = await client.messages.batches.create({ requests: [request('one'), request('two'), { custom_id: 'bad', params: { model } as unknown as Anthropic.Messages.MessageCreateParamsNonStreaming }] });
    expect(created).toMatchObject({ id: expect.stringMatching(/^msgbatch_/), type: 'message_batch', processing_status: 'in_progress', request_counts: { processing: 3, succeeded: 0 }, results_url: null });
    const batch = await untilEnded(client, created.id);
    expect(batch).toMatchObject({ processing_status: 'ended', request_counts: { processing: 0, succeeded: 2, errored: 1, canceled: 0, expired: 0 }, results_url: `${gateway.inferenceUrl}/v1/messages/batches/${created.id}/results` });
    expect(Date.parse(batch.ended_at!)).toBeGreaterThanOrEqual(Date.parse(batch.created_at));
    expect(upstream.stats().byPath['/v1/messages']).toBe(2);
    const lines = await results(client, created.id);
    expect(lines.map((line) => [line.custom_id, line.result.type])).toEqual([
      ['one', 'succeeded'],
      ['two', 'succeeded'],
      ['bad', 'errored'],
    ]);
    const first = lines[0]!.result as Anthropic.Messages.MessageBatchSucceededResult;
    expect(first.message).toMatchObject({ type: 'message', role: 'assistant', content: [{ type: 'text' }] });
    expect(lines[2]!.result).toMatchObject({ type: 'errored', error: { type: 'error', error: { type: 'invalid_request_error' } } });
    // Each API sees its own batches.
    expect((await client.messages.batches.list({ limit: 100 })).data.map((b) => b.id)).toContain(created.id);
    expect((await fetch(`${gateway.inferenceUrl}/v1/batches/${created.id}`, { headers: { authorization: `Bearer ${masterKey}` } })).status).toBe(404);
    expect(await client.messages.batches.delete(created.id)).toEqual({ id: created.id, type: 'message_batch_deleted' });
    await expect(client.messages.batches.retrieve(created.id)).rejects.toBeInstanceOf(Anthropic.NotFoundError);
  });

  it('cancels: requests not run are canceled results', async () => {
    upstream.configure({ latencyMs: 300 });
    try {
      const ids = ['c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7', 'c8'];
      const created = await client.messages.batches.create({ requests: ids.map((id) => request(id)) });
      await expect(client.messages.batches.delete(created.id)).rejects.toBeInstanceOf(Anthropic.BadRequestError);
      const canceling = await client.messages.batches.cancel(created.id);
      expect(canceling.processing_status).toMatch(/canceling|ended/);
      const batch = await untilEnded(client, created.id);
      expect(batch.request_counts.canceled).toBeGreaterThan(0);
      expect(batch.request_counts.succeeded + batch.request_counts.canceled).toBe(8);
      expect(batch.cancel_initiated_at).not.toBeNull();
      const lines = await results(client, created.id);
      expect(lines.map((line) => line.custom_id)).toEqual(ids);
      expect(lines.filter((line) => line.result.type === 'canceled')).toHaveLength(batch.request_counts.canceled);
    } finally {
      upstream.configure({ latencyMs: 0 });
    }
  });

  it('refuses duplicate custom ids and unknown batches in Anthropic’s error shape', async () => {
    await expect(client.messages.batches.create({ requests: [request('same'), request('same')] })).rejects.toMatchObject({ status: 400, error: { type: 'error', error: { type: 'invalid_request_error' } } });
    await expect(client.messages.batches.retrieve('msgbatch_unknown')).rejects.toBeInstanceOf(Anthropic.NotFoundError);
  });
});
