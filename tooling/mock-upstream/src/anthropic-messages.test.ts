import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockUpstream, startMockUpstream } from './server.js';
import { type AnthropicMessage, frames, post, readJson } from './test-client.js';

let mock: MockUpstream;
beforeAll(async () => {
  mock = await startMockUpstream({ tokens: 4 });
});
afterAll(() => mock.close());

const base = { model: 'claude-x', max_tokens: 100, messages: [{ role: 'user', content: 'Hi' }] };
const tools = [
  { name: 'lookup', input_schema: { type: 'object', properties: { q: { type: 'string' }, n: { type: 'number' } } } },
];

describe('POST /v1/messages', () => {
  it('answers a Message that echoes the model', async () => {
    const res = await post(`${mock.url}/v1/messages`, base);
    expect(res.headers.get('request-id')).toMatch(/^req_/);
    const body = await readJson<AnthropicMessage & { usage: { input_tokens: number } }>(res);
    expect(body).toMatchObject({
      type: 'message',
      role: 'assistant',
      model: 'claude-x',
      content: [{ type: 'text', text: 'Hello from the mock' }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { output_tokens: 4 },
    });
    expect(body.usage.input_tokens).toBeGreaterThan(0);
  });

  it('streams events in the strict order, each with a matching event: line', async () => {
    const res = await post(`${mock.url}/v1/messages`, { ...base, stream: true });
    const all = frames(await res.text());
    for (const f of all) expect(JSON.parse(f.data).type).toBe(f.event);
    expect(all.map((f) => f.event)).toEqual([
      'message_start',
      'content_block_start',
      'ping',
      'content_block_delta',
      'content_block_delta',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    const start = JSON.parse(all[0]?.data ?? '{}');
    expect(start.message).toMatchObject({ content: [], stop_reason: null, model: 'claude-x' });
    expect(typeof start.message.usage.input_tokens).toBe('number');
    const text = all
      .filter((f) => f.event === 'content_block_delta')
      .map((f) => JSON.parse(f.data).delta.text)
      .join('');
    expect(text).toBe('Hello from the mock');
    expect(JSON.parse(all[8]?.data ?? '{}')).toMatchObject({
      delta: { stop_reason: 'end_turn' },
      usage: { output_tokens: 4 },
    });
  });

  it('stops with max_tokens when max_tokens is below the answer length', async () => {
    const body = await readJson<AnthropicMessage>(await post(`${mock.url}/v1/messages`, { ...base, max_tokens: 1 }));
    expect(body).toMatchObject({ stop_reason: 'max_tokens', content: [{ text: 'Hello' }] });
  });

  it('answers tool_choice any with a tool_use block', async () => {
    const body = await readJson<AnthropicMessage>(
      await post(`${mock.url}/v1/messages`, { ...base, tools, tool_choice: { type: 'any' } }),
    );
    expect(body.stop_reason).toBe('tool_use');
    expect(body.content).toEqual([
      { type: 'tool_use', id: expect.stringMatching(/^toolu_/), name: 'lookup', input: { q: 'mock', n: 1 } },
    ]);
  });

  it('streams a tool_use block as input_json_delta fragments', async () => {
    const res = await post(`${mock.url}/v1/messages`, {
      ...base,
      tools,
      tool_choice: { type: 'tool', name: 'lookup' },
      stream: true,
    });
    const all = frames(await res.text()).map((f) => JSON.parse(f.data));
    expect(all[1].content_block).toMatchObject({ type: 'tool_use', name: 'lookup', input: {} });
    const json = all
      .filter((e) => e.type === 'content_block_delta')
      .map((e) => e.delta.partial_json)
      .join('');
    expect(JSON.parse(json)).toEqual({ q: 'mock', n: 1 });
    expect(all.at(-2).delta.stop_reason).toBe('tool_use');
  });

  it('rejects a request without max_tokens with an Anthropic error', async () => {
    const res = await post(`${mock.url}/v1/messages`, { model: 'c', messages: [] });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
  });
});
