import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { builtInModels } from '@svc/catalog';
import { createDb } from '@svc/db';
import { type MockUpstream, startMockUpstream } from '@svc/mock-upstream';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnGatewayProcess, stopProcess, submitChatBatch } from './gateway-process.js';
import { masterKey, upstreamProviders } from './harness.js';

const auth = { authorization: `Bearer ${masterKey}` };
const model = builtInModels.find((entry) => entry.provider === 'openai' && entry.kind === 'chat')!.id;
const claude = builtInModels.find((entry) => entry.provider === 'anthropic' && entry.kind === 'chat')!.id;

interface BatchView {
  status: string;
  output_file_id: string | null;
  request_counts: { total: number; completed: number; failed: number };
}

/** Issue 30: a native batch in flight when its instance dies (kill -9) is polled by the next one, never submitted again; every line answered and billed once. */
describe('a native batch across a kill -9', () => {
  let child: ChildProcess | undefined;
  let upstream: MockUpstream | undefined;
  let dataDir = '';
  afterAll(async () => {
    child?.kill('SIGKILL');
    await upstream?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  async function spawnGateway(): Promise<string> {
    const env = { ...upstreamProviders(upstream!.url), SVC_DATA_DIR: dataDir, SVC_BATCH_LEASE_MS: '2000', SVC_BATCH_NATIVE_POLL_MS: '200', SVC_LEARN_FLUSH_MS: '200' };
    const spawned = await spawnGatewayProcess(env);
    child = spawned.child;
    return spawned.url;
  }

  async function submit(url: string, named = model): Promise<string> {
    const lines = ['k1', 'k2', 'k3'].map((id) => ({ custom_id: id, method: 'POST', url: '/v1/chat/completions', body: { model: named, messages: [{ role: 'user', content: `question ${id}` }], max_tokens: 50 } }));
    return submitChatBatch(url, lines);
  }

  async function until<T>(probe: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 60_000): Promise<T> {
    for (const deadline = Date.now() + timeoutMs; ; ) {
      const value = await probe();
      if (done(value) || Date.now() > deadline) return value;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** The batch's output lines (read before the gateway stops) and, after it stopped, the request ids of its ledger rows. */
  async function outputOf(url: string, batch: BatchView): Promise<{ custom_id: string; response: { status_code: number; request_id: string } }[]> {
    return (await (await fetch(`${url}/v1/files/${batch.output_file_id}/content`, { headers: auth })).text())
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { custom_id: string; response: { status_code: number; request_id: string } });
  }

  async function ledgerRequestIds(id: string): Promise<string[]> {
    const db = await createDb({ dataDir });
    try {
      const org = await db.orgs.getByName('default');
      return (await db.usage.listByOrg(org!.id)).filter((row) => row.tags?.batch_id === id).map((row) => row.requestId).sort();
    } finally {
      await db.close();
    }
  }

  it('is taken over from the store, polled and collected once', async () => {
    upstream = await startMockUpstream({ tokens: 5, batchPolls: 1000 });
    dataDir = await mkdtemp(join(tmpdir(), 'svc-native-crash-'));
    let url = await spawnGateway();
    const id = await submit(url);
    await until(async () => upstream!.stats().byPath['/v1/batches'] ?? 0, (count) => count > 0);
    expect(upstream.stats().byPath['/v1/batches']).toBe(1);
    await stopProcess(child!, 'SIGKILL');
    upstream.configure({ batchPolls: 1 });
    url = await spawnGateway();
    const batch = await until(async () => (await (await fetch(`${url}/v1/batches/${id}`, { headers: auth })).json()) as BatchView, (view) => view.status === 'completed');
    expect(batch).toMatchObject({ status: 'completed', request_counts: { total: 3, completed: 3, failed: 0 } });
    // One upstream batch (the path's count would also hold the list read by a takeover when the kill landed before the store recorded the batch's id).
    const listed = (await (await fetch(`${upstream.url}/v1/batches`, { headers: { authorization: 'Bearer sk-upstream-openai' } })).json()) as { data: unknown[] };
    expect(listed.data).toHaveLength(1);
    const output = await outputOf(url, batch);
    await stopProcess(child!, 'SIGTERM');
    expect(output.map((line) => line.custom_id)).toEqual(['k1', 'k2', 'k3']);
    expect(await ledgerRequestIds(id)).toEqual(output.map((line) => line.response.request_id).sort());
  }, 180_000);

  it('killed after the provider accepted a part and before the store recorded its id: the batch is found by its part id, not submitted again', async () => {
    await upstream?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
    // The create is stored at once and answered 30 s later: the gateway dies in between.
    upstream = await startMockUpstream({ tokens: 5, batchPolls: 2, batchCreateDelayMs: 30_000 });
    dataDir = await mkdtemp(join(tmpdir(), 'svc-native-crash-'));
    let url = await spawnGateway();
    const id = await submit(url);
    await until(async () => upstream!.stats().byPath['/v1/batches'] ?? 0, (count) => count > 0);
    await stopProcess(child!, 'SIGKILL');
    url = await spawnGateway();
    const batch = await until(async () => (await (await fetch(`${url}/v1/batches/${id}`, { headers: auth })).json()) as BatchView, (view) => view.status === 'completed');
    await stopProcess(child!, 'SIGTERM');
    expect(batch).toMatchObject({ status: 'completed', request_counts: { total: 3, completed: 3, failed: 0 } });
    const listed = (await (await fetch(`${upstream.url}/v1/batches`, { headers: { authorization: 'Bearer sk-upstream-openai' } })).json()) as { data: unknown[] };
    expect(listed.data).toHaveLength(1);
    expect(upstream.stats().byPath['/v1/chat/completions']).toBeUndefined();
  }, 180_000);

  it('killed after Anthropic accepted a part and before the store recorded its id: the Message Batch of its size whose results carry the part id is taken up, not submitted again', async () => {
    await upstream?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
    upstream = await startMockUpstream({ tokens: 5, batchPolls: 2, batchCreateDelayMs: 30_000 });
    dataDir = await mkdtemp(join(tmpdir(), 'svc-native-crash-'));
    let url = await spawnGateway();
    const id = await submit(url, claude);
    await until(async () => upstream!.stats().byPath['/v1/messages/batches'] ?? 0, (count) => count > 0);
    await stopProcess(child!, 'SIGKILL');
    url = await spawnGateway();
    const batch = await until(async () => (await (await fetch(`${url}/v1/batches/${id}`, { headers: auth })).json()) as BatchView, (view) => view.status === 'completed');
    const output = await outputOf(url, batch);
    await stopProcess(child!, 'SIGTERM');
    expect(batch).toMatchObject({ status: 'completed', request_counts: { total: 3, completed: 3, failed: 0 } });
    expect(output.map((line) => [line.custom_id, line.response.status_code])).toEqual([['k1', 200], ['k2', 200], ['k3', 200]]);
    const listed = (await (await fetch(`${upstream.url}/v1/messages/batches`, { headers: { 'x-api-key': 'sk-upstream-anthropic' } })).json()) as { data: unknown[] };
    expect(listed.data).toHaveLength(1);
    expect(upstream.stats().byPath['/v1/messages']).toBeUndefined();
    expect(await ledgerRequestIds(id)).toEqual(output.map((line) => line.response.request_id).sort());
  }, 180_000);
});
