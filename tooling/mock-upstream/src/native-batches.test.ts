import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type MockUpstream, startMockUpstream } from './server.js';
import { post } from './test-client.js';

let mock: MockUpstream;
beforeAll(async () => {
  mock = await startMockUpstream();
});
beforeEach(() => mock.configure({ batchPolls: 2 }));
afterAll(() => mock.close());

const get = async (path: string) => (await fetch(`${mock.url}${path}`)).json() as Promise<Record<string, unknown>>;
const chatLine = (custom: string) => JSON.stringify({ custom_id: custom, method: 'POST', url: '/v1/chat/completions', body: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: custom }] } });

async function upload(text: string): Promise<string> {
  const form = new FormData();
  form.append('purpose', 'batch');
  form.append('file', new Blob([text]), 'in.jsonl');
  const res = await fetch(`${mock.url}/v1/files`, { method: 'POST', body: form });
  const file = (await res.json()) as { id: string; bytes: number; object: string };
  expect(file).toMatchObject({ object: 'file', bytes: Buffer.byteLength(text) });
  return file.id;
}

describe('OpenAI Batch API', () => {
  it('runs the lines of an input file over its retrieves and writes OpenAI output lines', async () => {
    const input = await upload(`${['a', 'b', 'c', 'd'].map(chatLine).join('\n')}\n`);
    const created = (await (await post(`${mock.url}/v1/batches`, { input_file_id: input, endpoint: '/v1/chat/completions', completion_window: '24h' })).json()) as { id: string; status: string };
    expect(created.status).toBe('validating');
    expect(await get(`/v1/batches/${created.id}`)).toMatchObject({ status: 'in_progress', request_counts: { total: 4, completed: 2, failed: 0 } });
    const done = await get(`/v1/batches/${created.id}`);
    expect(done).toMatchObject({ object: 'batch', status: 'completed', error_file_id: null, request_counts: { total: 4, completed: 4, failed: 0 } });
    const output = await (await fetch(`${mock.url}/v1/files/${done.output_file_id as string}/content`)).text();
    const lines = output.trim().split('\n').map((line) => JSON.parse(line) as { custom_id: string; response: { status_code: number; body: { object: string; usage: unknown } }; error: null });
    expect(lines.map((line) => line.custom_id)).toEqual(['a', 'b', 'c', 'd']);
    expect(lines[0]).toMatchObject({ response: { status_code: 200, body: { object: 'chat.completion' } }, error: null });
  });

  it('a cancelled batch keeps only the lines that ran', async () => {
    const input = await upload(['a', 'b', 'c', 'd'].map(chatLine).join('\n'));
    const { id } = (await (await post(`${mock.url}/v1/batches`, { input_file_id: input, endpoint: '/v1/chat/completions', completion_window: '24h' })).json()) as { id: string };
    await get(`/v1/batches/${id}`);
    expect(await (await post(`${mock.url}/v1/batches/${id}/cancel`, {})).json()).toMatchObject({ status: 'cancelling' });
    const ended = await get(`/v1/batches/${id}`);
    expect(ended).toMatchObject({ status: 'cancelled', request_counts: { total: 4, completed: 2 } });
    const output = await (await fetch(`${mock.url}/v1/files/${ended.output_file_id as string}/content`)).text();
    expect(output.trim().split('\n')).toHaveLength(2);
  });
});

describe('Anthropic Message Batches', () => {
  it('answers each request as /v1/messages does, results in request order', async () => {
    const params = (text: string) => ({ model: 'claude-x', max_tokens: 16, messages: [{ role: 'user', content: text }] });
    const created = (await (await post(`${mock.url}/v1/messages/batches`, { requests: [{ custom_id: 'one', params: params('a') }, { custom_id: 'two', params: { model: 'claude-x' } }] })).json()) as { id: string; processing_status: string };
    expect(created).toMatchObject({ type: 'message_batch', processing_status: 'in_progress', results_url: null });
    await get(`/v1/messages/batches/${created.id}`);
    const ended = await get(`/v1/messages/batches/${created.id}`);
    expect(ended).toMatchObject({ processing_status: 'ended', request_counts: { processing: 0, succeeded: 1, errored: 1 } });
    const results = (await (await fetch(ended.results_url as string)).text()).trim().split('\n').map((line) => JSON.parse(line) as { custom_id: string; result: { type: string } });
    expect(results[0]).toMatchObject({ custom_id: 'one', result: { type: 'succeeded', message: { type: 'message' } } });
    expect(results[1]).toMatchObject({ custom_id: 'two', result: { type: 'errored', error: { type: 'error', error: { type: 'invalid_request_error' } } } });
  });

  it('a cancelled Message Batch answers the requests not run canceled', async () => {
    const params = { model: 'claude-x', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] };
    const { id } = (await (await post(`${mock.url}/v1/messages/batches`, { requests: ['a', 'b', 'c', 'd'].map((custom) => ({ custom_id: custom, params })) })).json()) as { id: string };
    await get(`/v1/messages/batches/${id}`);
    await post(`${mock.url}/v1/messages/batches/${id}/cancel`, {});
    const ended = await get(`/v1/messages/batches/${id}`);
    expect(ended).toMatchObject({ processing_status: 'ended', request_counts: { succeeded: 2, canceled: 2 } });
    const results = (await (await fetch(ended.results_url as string)).text()).trim().split('\n').map((line) => (JSON.parse(line) as { result: { type: string } }).result.type);
    expect(results).toEqual(['succeeded', 'succeeded', 'canceled', 'canceled']);
  });

  it('lists the key\'s Message Batches newest first, paginated as Anthropic does (limit, after_id, before_id, first_id, last_id, has_more)', async () => {
    const params = { model: 'claude-x', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] };
    const create = async (count: number, key: string) => {
      const res = await fetch(`${mock.url}/v1/messages/batches`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key }, body: JSON.stringify({ requests: Array.from({ length: count }, (_, i) => ({ custom_id: `c${i}`, params })) }) });
      return ((await res.json()) as { id: string }).id;
    };
    const ids = [await create(1, 'sk-list'), await create(2, 'sk-list'), await create(3, 'sk-list')];
    await create(1, 'sk-other');
    type ListPage = { data: { id: string; type: string; request_counts: { processing: number } }[]; has_more: boolean; first_id: string | null; last_id: string | null };
    const list = async (query: string) => (await (await fetch(`${mock.url}/v1/messages/batches${query}`, { headers: { 'x-api-key': 'sk-list' } })).json()) as ListPage;
    const first = await list('?limit=2');
    expect(first.data.map((batch) => batch.id)).toEqual([ids[2], ids[1]]);
    expect(first).toMatchObject({ has_more: true, first_id: ids[2], last_id: ids[1] });
    expect(first.data[0]).toMatchObject({ type: 'message_batch', request_counts: { processing: 3 } });
    const second = await list(`?limit=2&after_id=${first.last_id}`);
    expect(second).toMatchObject({ data: [{ id: ids[0] }], has_more: false, first_id: ids[0], last_id: ids[0] });
    const back = await list(`?limit=1&before_id=${ids[0]}`);
    expect(back).toMatchObject({ data: [{ id: ids[1] }], has_more: true });
    expect((await list('')).data).toHaveLength(3);
    expect(await list('?after_id=msgbatch_unknown')).toMatchObject({ data: [], has_more: false, first_id: null, last_id: null });
    expect((await fetch(`${mock.url}/v1/messages/batches?limit=0`, { headers: { 'x-api-key': 'sk-list' } })).status).toBe(400);
  });
});
