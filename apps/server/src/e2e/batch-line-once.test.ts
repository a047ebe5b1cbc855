import { type MockUpstream, startMockUpstream } from '@svc/mock-upstream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { masterKey, startGateway, upstreamProviders } from './harness.js';

type Gateway = Awaited<ReturnType<typeof startGateway>>;

const auth = { authorization: `Bearer ${masterKey}` };

interface OutputLine {
  custom_id: string;
  response: { status_code: number; request_id: string; body: { usage: { completion_tokens: number } } };
}

/**
 * Issue 30: the case a kill -9 hits only by chance, forced. A line's answer is billed (its ledger
 * row journaled) and then not recorded, as when the instance dies between the two: the line runs
 * again, and the ledger still holds one row for it, the row of the answer in the output.
 */
describe('a batch line billed and then lost before its answer was recorded', () => {
  let upstream: MockUpstream;
  let gateway: Gateway;

  beforeAll(async () => {
    upstream = await startMockUpstream({ tokens: 5 });
    gateway = await startGateway({ ...upstreamProviders(upstream.url), SVC_BATCH_CONCURRENCY: '2', SVC_BATCH_NATIVE: '0' });
  });
  afterAll(async () => {
    await gateway?.stop();
    await upstream?.close();
  });

  it('runs it again and keeps one ledger row per line', async () => {
    const batches = gateway.runtime.batches;
    let lost = 0;
    // The first answer of line 1 is lost after it was billed; the worker takes the batch up again.
    const answerLine: typeof batches.answerLine = async (batchId, answer) => {
      if (answer.line === 1 && lost++ === 0) throw new Error('killed before the answer was recorded');
      return batches.answerLine(batchId, answer);
    };
    gateway.runtime.batches = new Proxy(batches, { get: (target, name, receiver) => (name === 'answerLine' ? answerLine : Reflect.get(target, name, receiver)) });
    const model = gateway.runtime.catalog.list({ provider: 'openai', kind: 'chat' })[0]!.id;
    const lines = ['a', 'b', 'c'].map((id) => JSON.stringify({ custom_id: id, method: 'POST', url: '/v1/chat/completions', body: { model, messages: [{ role: 'user', content: `question ${id}` }] } }));
    const form = new FormData();
    form.set('purpose', 'batch');
    form.set('file', new Blob([lines.join('\n')]), 'input.jsonl');
    const file = (await (await fetch(`${gateway.inferenceUrl}/v1/files`, { method: 'POST', headers: auth, body: form })).json()) as { id: string };
    const created = await fetch(`${gateway.inferenceUrl}/v1/batches`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ input_file_id: file.id, endpoint: '/v1/chat/completions', completion_window: '24h' }) });
    const { id } = (await created.json()) as { id: string };
    let batch: { status: string; output_file_id: string };
    do {
      await new Promise((resolve) => setTimeout(resolve, 50));
      batch = (await (await fetch(`${gateway.inferenceUrl}/v1/batches/${id}`, { headers: auth })).json()) as typeof batch;
    } while (batch.status !== 'completed');

    expect(lost).toBe(2);
    gateway.runtime.batches = batches;
    expect(upstream.stats().byPath['/v1/chat/completions']).toBe(4);
    const output = (await (await fetch(`${gateway.inferenceUrl}/v1/files/${batch.output_file_id}/content`, { headers: auth })).text())
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as OutputLine);
    expect(output.map((line) => line.custom_id)).toEqual(['a', 'b', 'c']);
    await gateway.runtime.learn.flush();
    const org = await gateway.runtime.db.orgs.getByName('default');
    const rows = (await gateway.runtime.db.usage.listByOrg(org!.id)).filter((row) => row.tags?.batch_id === id);
    expect(rows.map((row) => row.requestId).sort()).toEqual(output.map((line) => line.response.request_id).sort());
  }, 60_000);
});
