import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockUpstream, startMockUpstream } from './server.js';
import { type ChatCompletion, type ErrorBody, frames, post, readJson } from './test-client.js';

let mock: MockUpstream;
beforeAll(async () => {
  mock = await startMockUpstream({ tokens: 5 });
});
afterAll(() => mock.close());

const messages = [{ role: 'user', content: 'Say hello' }];

describe('POST /v1/chat/completions', () => {
  it('answers a chat.completion that echoes the model and counts usage', async () => {
    const res = await post(`${mock.url}/v1/chat/completions`, { model: 'gpt-x', messages });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    const body = await readJson<ChatCompletion>(res);
    expect(body).toMatchObject({
      object: 'chat.completion',
      model: 'gpt-x',
      choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'Hello from the mock upstream.' } }],
      usage: { completion_tokens: 5 },
    });
    expect(body.id).toMatch(/^chatcmpl-/);
    expect(body.usage.total_tokens).toBe(body.usage.prompt_tokens + 5);
  });

  it('streams chunks, then a choices:[] usage chunk and [DONE] when include_usage is set', async () => {
    const res = await post(`${mock.url}/v1/chat/completions`, {
      model: 'gpt-x',
      messages,
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const all = frames(await res.text());
    expect(all.at(-1)?.data).toBe('[DONE]');
    const chunks = all.slice(0, -1).map((f) => JSON.parse(f.data));
    expect(new Set(chunks.map((c) => c.id)).size).toBe(1);
    expect(chunks[0].choices[0].delta).toMatchObject({ role: 'assistant', content: '' });
    const text = chunks.map((c) => c.choices[0]?.delta?.content ?? '').join('');
    expect(text).toBe('Hello from the mock upstream.');
    const usageChunk = chunks.at(-1);
    expect(usageChunk.choices).toEqual([]);
    expect(usageChunk.usage.completion_tokens).toBe(5);
    expect(chunks.at(-2).choices[0].finish_reason).toBe('stop');
    expect(chunks.slice(0, -1).every((c) => c.usage === null && c.model === 'gpt-x')).toBe(true);
  });

  it('streams without usage chunk when include_usage is absent', async () => {
    const res = await post(`${mock.url}/v1/chat/completions`, { model: 'm', messages, stream: true });
    const chunks = frames(await res.text()).slice(0, -1).map((f) => JSON.parse(f.data));
    expect(chunks.every((c) => c.choices.length === 1 && !('usage' in c))).toBe(true);
  });

  it('caps the answer at max_tokens with finish_reason length', async () => {
    const res = await post(`${mock.url}/v1/chat/completions`, { model: 'm', messages, max_tokens: 2 });
    const body = await readJson<ChatCompletion>(res);
    expect(body.choices[0]).toMatchObject({ finish_reason: 'length', message: { content: 'Hello from' } });
  });

  const tools = [
    {
      type: 'function',
      function: {
        name: 'get_weather',
        parameters: {
          type: 'object',
          properties: { city: { type: 'string' }, unit: { enum: ['c', 'f'] }, days: { type: 'integer' } },
          required: ['city'],
        },
      },
    },
  ];

  it('answers tool_choice "required" with a tool call whose arguments are valid JSON', async () => {
    const res = await post(`${mock.url}/v1/chat/completions`, { model: 'm', messages, tools, tool_choice: 'required' });
    const body = await readJson<ChatCompletion>(res);
    const choice = body.choices[0]!;
    expect(choice.finish_reason).toBe('tool_calls');
    expect(choice.message.content).toBeNull();
    const call = choice.message.tool_calls[0]!;
    expect(call).toMatchObject({ type: 'function', function: { name: 'get_weather' } });
    expect(JSON.parse(call.function.arguments)).toEqual({ city: 'mock', unit: 'c', days: 1 });
  });

  it('streams a tool call as argument fragments that join into valid JSON', async () => {
    const res = await post(`${mock.url}/v1/chat/completions`, {
      model: 'm',
      messages,
      tools,
      tool_choice: 'required',
      stream: true,
    });
    const chunks = frames(await res.text()).slice(0, -1).map((f) => JSON.parse(f.data));
    expect(chunks[0].choices[0].delta.tool_calls[0]).toMatchObject({ index: 0, id: expect.any(String), function: { name: 'get_weather', arguments: '' } });
    const args = chunks.map((c) => c.choices[0].delta.tool_calls?.[0]?.function.arguments ?? '').join('');
    expect(JSON.parse(args)).toEqual({ city: 'mock', unit: 'c', days: 1 });
    expect(chunks.at(-1).choices[0].finish_reason).toBe('tool_calls');
  });

  it('answers text when tools are given but tool_choice is auto', async () => {
    const res = await post(`${mock.url}/v1/chat/completions`, { model: 'm', messages, tools });
    const body = await readJson<ChatCompletion>(res);
    expect(body.choices[0]?.message.content).toBe('Hello from the mock upstream.');
  });

  it('rejects a request without model like OpenAI does', async () => {
    const res = await post(`${mock.url}/v1/chat/completions`, { messages });
    expect(res.status).toBe(400);
    expect((await readJson<ErrorBody>(res)).error.type).toBe('invalid_request_error');
  });

  it('counts requests by path', async () => {
    const before = mock.stats().byPath['/v1/chat/completions'] ?? 0;
    await (await post(`${mock.url}/v1/chat/completions`, { model: 'm', messages })).text();
    expect(mock.stats().byPath['/v1/chat/completions']).toBe(before + 1);
    expect(mock.stats().lastRequest?.body).toMatchObject({ model: 'm' });
  });
});
