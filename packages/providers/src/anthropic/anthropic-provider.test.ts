import { describe, expect, it } from 'vitest';
import { chatRequest, weatherTool } from '../test/chat-request.js';
import { fixtureFiles } from '../test/fixture-files.js';
import { collect, drainUntilError, rejection } from '../test/outcomes.js';
import { useFixtureProvider } from '../test/use-fixture-server.js';
import { createAnthropicProvider } from './anthropic-provider.js';

const { json, chunks } = fixtureFiles(new URL('./__fixtures__/', import.meta.url));

const base = chatRequest('claude-sonnet-4-5');

const serve = useFixtureProvider((url) => createAnthropicProvider({ apiKeys: ['sk-ant-1', 'sk-ant-2'], baseUrl: `${url}/` }));

describe('anthropic chat', () => {
  it('sends a Messages request and reads text, usage and cache tokens', async () => {
    const { server, provider } = await serve({ json: json('text') });
    const result = await provider.chat({ ...base, temperature: 1.6, topP: 1, stop: ['END'], user: 'u-1' }, { headers: { 'anthropic-beta': 'prompt-caching-2024-07-31' } });

    const [sent] = server.requests;
    expect(sent?.path).toBe('/v1/messages');
    expect(sent?.headers['x-api-key']).toBe('sk-ant-1');
    expect(sent?.headers['anthropic-version']).toBe('2023-06-01');
    expect(sent?.headers['anthropic-beta']).toBe('prompt-caching-2024-07-31');
    expect(sent?.body).toEqual({
      model: 'claude-sonnet-4-5',
      max_tokens: 4096,
      system: [{ type: 'text', text: 'Be brief.' }],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
      temperature: 1,
      stop_sequences: ['END'],
      metadata: { user_id: 'u-1' },
    });
    expect(result).toEqual({
      id: 'msg_01XFDUDYJgAACzvnptvVoYEL',
      model: 'claude-sonnet-4-5-20250929',
      choices: [{ index: 0, message: { role: 'assistant', content: 'Hello! How can I help you today?' }, finishReason: 'stop' }],
      usage: { promptTokens: 2012, completionTokens: 11, totalTokens: 2023, cachedPromptTokens: 1800, cacheWriteTokens: 200 },
    });
  });

  it('reads one-hour cache writes apart from the five-minute ones, in answers and streams', async () => {
    const oneHour = { input_tokens: 12, cache_creation_input_tokens: 300, cache_read_input_tokens: 0, output_tokens: 11, cache_creation: { ephemeral_5m_input_tokens: 100, ephemeral_1h_input_tokens: 200 } };
    const answer = { ...(json('text') as Record<string, unknown>), usage: oneHour };
    const expected = { promptTokens: 312, completionTokens: 11, totalTokens: 323, cacheWriteTokens: 300, cacheWrite1hTokens: 200 };
    expect((await (await serve({ json: answer })).provider.chat(base)).usage).toEqual(expected);
    const started = chunks('text').map((chunk) => chunk.replace('"cache_creation_input_tokens":0,"cache_read_input_tokens":1800', '"cache_creation_input_tokens":300,"cache_read_input_tokens":0,"cache_creation":{"ephemeral_5m_input_tokens":100,"ephemeral_1h_input_tokens":200}'));
    const events = await collect(await (await serve({ chunks: started })).provider.stream({ ...base, stream: true }));
    expect(events.at(-1)).toEqual({ type: 'usage', usage: expected });
  });

  it('takes keys round-robin unless the call names one', async () => {
    const { server, provider } = await serve({ json: json('text') });
    await provider.chat(base);
    await provider.chat(base);
    await provider.chat(base, { apiKey: 'sk-ant-byok' });
    expect(server.requests.map((request) => request.headers['x-api-key'])).toEqual(['sk-ant-1', 'sk-ant-2', 'sk-ant-byok']);
  });

  it('maps tools and tool choice, and returns tool calls as JSON text', async () => {
    const { server, provider } = await serve({ json: json('tools') });
    const result = await provider.chat({ ...base, tools: [weatherTool, { name: 'get_time' }], toolChoice: 'required', parallelToolCalls: false });

    const body = server.requests[0]?.body as Record<string, unknown>;
    expect(body.tools).toEqual([
      { name: 'get_weather', description: 'Current weather', input_schema: weatherTool.parameters },
      { name: 'get_time', input_schema: { type: 'object', properties: {} } },
    ]);
    expect(body.tool_choice).toEqual({ type: 'any', disable_parallel_tool_use: true });
    expect(result.choices[0]).toEqual({
      index: 0,
      finishReason: 'tool_calls',
      message: {
        role: 'assistant',
        content: "I'll check the weather in both cities.",
        toolCalls: [
          { id: 'toolu_01A09q90qw90lq917835lq9', name: 'get_weather', arguments: '{"location":"Paris, France","unit":"celsius"}' },
          { id: 'toolu_01B7Hh2kVbN3s5QwXk2yJ8pR', name: 'get_time', arguments: '{}' },
        ],
      },
    });
  });

  it('emulates JSON mode with a forced tool whose input becomes the content', async () => {
    const { server, provider } = await serve({ json: json('json-mode') });
    const schema = { type: 'object', properties: { city: { type: 'string' }, population: { type: 'integer' } }, required: ['city'] };
    const result = await provider.chat({ ...base, responseFormat: { type: 'json_schema', name: 'city', schema } });

    const body = server.requests[0]?.body as Record<string, unknown>;
    expect(body.tools).toEqual([{ name: 'json_response', description: 'Give the final answer as JSON matching the "city" schema.', input_schema: schema }]);
    expect(body.tool_choice).toEqual({ type: 'tool', name: 'json_response' });
    expect(result.choices[0]?.message).toEqual({ role: 'assistant', content: '{"city":"Paris","population":2102650}' });
    expect(result.choices[0]?.finishReason).toBe('stop');
  });

  it('turns reasoning effort into a thinking budget on top of max_tokens, without sampling overrides or forced tools', async () => {
    const { server, provider } = await serve({ json: json('text') });
    await provider.chat({ ...base, maxTokens: 1000, temperature: 0.2, topP: 0.9, reasoningEffort: 'low', tools: [weatherTool], toolChoice: 'required' });
    const body = server.requests[0]?.body as Record<string, unknown>;
    // Anthropic refuses forced tool use while thinking.
    expect(body.tool_choice).toEqual({ type: 'auto' });
    expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
    expect(body.max_tokens).toBe(3048);
    expect(body).not.toHaveProperty('temperature');
    expect(body).not.toHaveProperty('top_p');
  });
});

describe('anthropic stream', () => {
  it('passes text through token by token, then finish and usage', async () => {
    const { server, provider } = await serve({ chunks: chunks('text') });
    const events = await collect(await provider.stream({ ...base, stream: true }));

    expect(server.requests[0]?.body).toMatchObject({ stream: true });
    expect(events).toEqual([
      { type: 'meta', id: 'msg_01R3Kx5GJ2sWmVq4b8YtZfPo', model: 'claude-sonnet-4-5-20250929' },
      { type: 'text-delta', choice: 0, text: 'Hello' },
      { type: 'text-delta', choice: 0, text: '!' },
      { type: 'text-delta', choice: 0, text: ' How can I' },
      { type: 'text-delta', choice: 0, text: ' help you today?' },
      { type: 'finish', choice: 0, finishReason: 'stop' },
      { type: 'usage', usage: { promptTokens: 1812, completionTokens: 11, totalTokens: 1823, cachedPromptTokens: 1800 } },
    ]);
  });

  it('streams tool calls by ordinal with id and name first', async () => {
    const { provider } = await serve({ chunks: chunks('tools') });
    const events = await collect(await provider.stream({ ...base, stream: true, tools: [weatherTool, { name: 'get_time' }] }));
    expect(events.filter((event) => event.type === 'tool-call-delta')).toEqual([
      { type: 'tool-call-delta', choice: 0, index: 0, id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', name: 'get_weather', argumentsDelta: '' },
      { type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: '{"location":' },
      { type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: ' "Paris, France"}' },
      { type: 'tool-call-delta', choice: 0, index: 1, id: 'toolu_01B7Hh2kVbN3s5QwXk2yJ8pR', name: 'get_time', argumentsDelta: '' },
      { type: 'tool-call-delta', choice: 0, index: 1, argumentsDelta: '{}' },
    ]);
    expect(events.at(-2)).toEqual({ type: 'finish', choice: 0, finishReason: 'tool_calls' });
  });

  it('streams a JSON-mode answer as text', async () => {
    const { provider } = await serve({ chunks: chunks('json-mode') });
    const events = await collect(await provider.stream({ ...base, stream: true, responseFormat: { type: 'json_object' } }));
    const text = events.map((event) => (event.type === 'text-delta' ? event.text : '')).join('');
    expect(JSON.parse(text)).toEqual({ city: 'Paris', population: 2102650 });
    expect(events.at(-2)).toEqual({ type: 'finish', choice: 0, finishReason: 'stop' });
  });

  it('streams thinking as reasoning and maps max_tokens to length', async () => {
    const { provider } = await serve({ chunks: chunks('thinking') });
    const events = await collect(await provider.stream({ ...base, stream: true, reasoning: { maxTokens: 500 } }));
    expect(events.slice(1, 3)).toEqual([
      { type: 'reasoning-delta', choice: 0, text: '27 * 453 = 12231' },
      { type: 'text-delta', choice: 0, text: '12,231' },
    ]);
    expect(events.at(-2)).toEqual({ type: 'finish', choice: 0, finishReason: 'length' });
  });

  it('rejects before the first byte when the upstream is overloaded', async () => {
    const { provider } = await serve({ status: 529, json: json('overloaded') });
    const error = await rejection(provider.stream({ ...base, stream: true }));
    expect([error.kind, error.upstreamStatus, error.retryable]).toEqual(['overloaded', 529, true]);
  });

  it('throws the classified error of a mid-stream error event', async () => {
    const { provider } = await serve({ chunks: chunks('stream-error') });
    const { events, error } = await drainUntilError(await provider.stream({ ...base, stream: true }));
    expect(events.map((event) => event.type)).toEqual(['meta', 'text-delta']);
    expect([error.kind, error.upstreamCode, error.message]).toEqual(['overloaded', 'overloaded_error', 'Overloaded']);
  });

  it('throws when the connection drops mid-stream', async () => {
    const { provider } = await serve({ chunks: chunks('text'), dropAfter: 4, delayMs: 10 });
    const error = await rejection(collect(await provider.stream({ ...base, stream: true })));
    expect(error.retryable).toBe(true);
  });

  it('throws when the stream ends without message_stop', async () => {
    const { provider } = await serve({ chunks: chunks('text').slice(0, -1) });
    const error = await rejection(collect(await provider.stream({ ...base, stream: true })));
    expect(error.message).toMatch(/message_stop/);
  });
});

describe('anthropic errors', () => {
  it.each([
    ['rate-limit', 429, 'rate_limit', true],
    ['overloaded', 529, 'overloaded', true],
    ['context-too-long', 400, 'context_length', true],
    ['credit-balance', 400, 'billing', true],
    ['invalid-request', 400, 'invalid_request', false],
  ] as const)('classifies %s (%i) as %s', async (name, status, kind, retryable) => {
    const { provider } = await serve({ status, json: json(name), headers: { 'retry-after': '7' } });
    const error = await rejection(provider.chat(base));
    expect([error.kind, error.retryable, error.upstreamStatus]).toEqual([kind, retryable, status]);
    expect(error.retryAfterMs).toBe(7000);
  });

  it('keeps the upstream message for the caller', async () => {
    const { provider } = await serve({ status: 400, json: json('context-too-long') });
    const error = await rejection(provider.chat(base));
    expect(error.message).toBe('prompt is too long: 208310 tokens > 200000 maximum');
    expect(error.code).toBe('context_length_exceeded');
  });
});
