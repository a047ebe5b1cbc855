import { describe, expect, it } from 'vitest';
import type { ProviderChatRequest } from '../provider.js';
import { fixtureFiles } from '../test/fixture-files.js';
import { collect, drainUntilError, rejection } from '../test/outcomes.js';
import { useFixtureProvider } from '../test/use-fixture-server.js';
import { type AzureSettings, createAzureOpenAIProvider } from './azure-provider.js';

const { json, chunks } = fixtureFiles(new URL('./__fixtures__/', import.meta.url));

const request = (overrides: Partial<ProviderChatRequest> = {}): ProviderChatRequest => ({
  model: 'gpt-4o',
  messages: [{ role: 'user', content: 'Hi' }],
  stream: false,
  n: 1,
  includeUsage: false,
  ...overrides,
});

const weatherTool = { name: 'get_weather', parameters: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] } };

const serve = useFixtureProvider((url, settings: Partial<AzureSettings> = {}) =>
  createAzureOpenAIProvider({ apiKeys: ['az-key-1', 'az-key-2'], baseUrl: `${url}/`, deployments: { 'gpt-4o': 'prod-chat', o3: 'reasoner' }, ...settings }),
);

describe('azure chat', () => {
  it('posts to the deployment URL with api-version and an api-key header, and maps the answer', async () => {
    const { server, provider } = await serve({ json: json('text') });
    const result = await provider.chat(request({ temperature: 0.3 }), { headers: { 'x-ms-client-request-id': 'r-1' } });

    const sent = server.requests[0]!;
    expect(sent.path).toBe('/openai/deployments/prod-chat/chat/completions?api-version=2024-10-21');
    expect(sent.headers['api-key']).toBe('az-key-1');
    expect(sent.headers.authorization).toBeUndefined();
    expect(sent.headers['x-ms-client-request-id']).toBe('r-1');
    expect(sent.body).toEqual({ model: 'prod-chat', messages: [{ role: 'user', content: 'Hi' }], temperature: 0.3 });
    expect(result).toEqual({
      id: 'chatcmpl-CUDk3aqWnZ1oHY0pXgV4mTqL8sEbA',
      model: 'gpt-4o-2024-11-20',
      created: 1761302745,
      systemFingerprint: 'fp_ee1d74bde0',
      choices: [{ index: 0, message: { role: 'assistant', content: 'Hello! How can I help you today?' }, finishReason: 'stop' }],
      usage: { promptTokens: 1302, completionTokens: 10, totalTokens: 1312, cachedPromptTokens: 1152 },
    });
  });

  it('uses the model name as deployment when unmapped, rotates keys and honours a BYOK key', async () => {
    const { server, provider } = await serve({ json: json('text') }, { apiVersion: '2025-04-01-preview' });
    await provider.chat(request({ model: 'gpt-4.1-mini' }));
    await provider.chat(request({ model: 'constructor' }));
    await provider.chat(request(), { apiKey: 'az-byok' });
    expect(server.requests.map((r) => r.path)).toEqual([
      '/openai/deployments/gpt-4.1-mini/chat/completions?api-version=2025-04-01-preview',
      '/openai/deployments/constructor/chat/completions?api-version=2025-04-01-preview',
      '/openai/deployments/prod-chat/chat/completions?api-version=2025-04-01-preview',
    ]);
    expect(server.requests.map((r) => r.headers['api-key'])).toEqual(['az-key-1', 'az-key-2', 'az-byok']);
  });

  it('speaks the v1 surface: no api-version, deployment as model, reasoning rules from the real model name', async () => {
    const { server, provider } = await serve({ json: json('text') }, { apiVersion: 'v1' });
    await provider.chat(request({ model: 'o3', maxTokens: 500, temperature: 0.2, reasoningEffort: 'high', serviceTier: 'priority' }));
    const sent = server.requests[0]!;
    expect(sent.path).toBe('/openai/v1/chat/completions');
    // `reasoner` says nothing about the model; the o3 rules still apply.
    expect(sent.body).toEqual({ model: 'reasoner', messages: [{ role: 'user', content: 'Hi' }], max_completion_tokens: 500, reasoning_effort: 'high' });
  });

  it('sends tools and returns tool calls', async () => {
    const { server, provider } = await serve({ json: json('tool-calls') });
    const result = await provider.chat(request({ tools: [weatherTool], toolChoice: 'required', parallelToolCalls: true }));
    expect(server.requests[0]!.body).toMatchObject({
      tools: [{ type: 'function', function: weatherTool }],
      tool_choice: 'required',
      parallel_tool_calls: true,
    });
    expect(result.choices[0]).toEqual({
      index: 0,
      finishReason: 'tool_calls',
      message: {
        role: 'assistant',
        content: null,
        toolCalls: [
          { id: 'call_QbV3nXr8tY2kLmP0aZs9dWc1', name: 'get_weather', arguments: '{"location":"Paris, France"}' },
          { id: 'call_Hf7uJk2LsN4pQr6tVw8xYz0B', name: 'get_weather', arguments: '{"location":"Tokyo, Japan"}' },
        ],
      },
    });
  });

  it('sends JSON mode as response_format', async () => {
    const { server, provider } = await serve({ json: json('json-mode') });
    const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
    const result = await provider.chat(request({ responseFormat: { type: 'json_schema', name: 'city', schema, strict: true } }));
    expect((server.requests[0]!.body as Record<string, unknown>).response_format).toEqual({ type: 'json_schema', json_schema: { name: 'city', schema, strict: true } });
    expect(JSON.parse(result.choices[0]!.message.content!)).toEqual({ city: 'Paris', population: 2102650 });
  });

  it.each([
    ['length', 'length'],
    ['completion-filtered', 'content_filter'],
  ] as const)('maps finish_reason of %s to %s', async (fixture, finishReason) => {
    const { provider } = await serve({ json: json(fixture) });
    expect((await provider.chat(request())).choices[0]!.finishReason).toBe(finishReason);
  });
});

describe('azure stream', () => {
  it('passes text through token by token, skipping the prompt-filter chunk', async () => {
    const { server, provider } = await serve({ chunks: chunks('text') });
    const events = await collect(await provider.stream(request({ stream: true, includeUsage: true })));
    expect(server.requests[0]!.body).toMatchObject({ model: 'prod-chat', stream: true, stream_options: { include_usage: true } });
    expect(events).toEqual([
      { type: 'meta', id: 'chatcmpl-CUDp2aB4cD6eF8gH0iJ2kL4mN6oP8q', model: 'gpt-4o-2024-11-20', systemFingerprint: 'fp_ee1d74bde0' },
      { type: 'text-delta', choice: 0, text: 'Hello' },
      { type: 'text-delta', choice: 0, text: '!' },
      { type: 'text-delta', choice: 0, text: ' How can I' },
      { type: 'text-delta', choice: 0, text: ' help you today?' },
      { type: 'finish', choice: 0, finishReason: 'stop' },
      { type: 'usage', usage: { promptTokens: 1302, completionTokens: 10, totalTokens: 1312 } },
    ]);
  });

  it('streams tool calls with id and name first', async () => {
    const { provider } = await serve({ chunks: chunks('tool-calls') });
    const events = await collect(await provider.stream(request({ stream: true, tools: [weatherTool] })));
    expect(events.filter((event) => event.type === 'tool-call-delta' || event.type === 'finish')).toEqual([
      { type: 'tool-call-delta', choice: 0, index: 0, id: 'call_QbV3nXr8tY2kLmP0aZs9dWc1', name: 'get_weather', argumentsDelta: '' },
      { type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: '{"location":' },
      { type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: ' "Paris, France"}' },
      { type: 'finish', choice: 0, finishReason: 'tool_calls' },
    ]);
  });

  it('ends a filtered completion with finish reason content_filter', async () => {
    const { provider } = await serve({ chunks: chunks('content-filter') });
    const events = await collect(await provider.stream(request({ stream: true })));
    expect(events.filter((event) => event.type === 'text-delta').length).toBe(2);
    expect(events.at(-2)).toEqual({ type: 'finish', choice: 0, finishReason: 'content_filter' });
  });

  it('throws the classified error of a mid-stream error event', async () => {
    const { provider } = await serve({ chunks: chunks('stream-error') });
    const { events, error } = await drainUntilError(await provider.stream(request({ stream: true })));
    expect(events.map((event) => event.type)).toEqual(['meta', 'text-delta', 'text-delta']);
    expect([error.kind, error.retryable, error.upstreamCode]).toEqual(['server', true, 'InternalServerError']);
  });

  it('throws, never ends quietly, when the connection drops mid-stream', async () => {
    const { provider } = await serve({ chunks: chunks('text'), dropAfter: 4, delayMs: 5 });
    const error = await rejection(collect(await provider.stream(request({ stream: true }))));
    expect([error.kind, error.retryable]).toEqual(['network', true]);
  });

  it('throws when [DONE] arrives before any finish_reason', async () => {
    const { provider } = await serve({ chunks: [...chunks('text').slice(0, 4), 'data: [DONE]\n\n'] });
    const error = await rejection(collect(await provider.stream(request({ stream: true }))));
    expect(error.message).toMatch(/before the answer finished/);
  });

  it('rejects before the first byte on a 429, so the caller can fall back', async () => {
    const { provider } = await serve({ status: 429, json: json('error-rate-limit'), headers: { 'retry-after': '6' } });
    const error = await rejection(provider.stream(request({ stream: true })));
    expect([error.kind, error.retryAfterMs]).toEqual(['rate_limit', 6000]);
  });
});

describe('azure errors', () => {
  it.each([
    ['error-rate-limit', 429, 'rate_limit', true],
    ['error-deployment-not-found', 404, 'not_found', true],
    ['error-context-length', 400, 'context_length', true],
    ['error-content-filter', 400, 'content_filter', false],
    ['error-bad-request', 400, 'invalid_request', false],
    ['error-unauthorized', 401, 'authentication', true],
  ] as const)('classifies %s (%i) as %s', async (fixture, status, kind, retryable) => {
    const { provider } = await serve({ status, json: json(fixture), headers: { 'retry-after-ms': '6000', 'retry-after': '6' } });
    const error = await rejection(provider.chat(request()));
    expect([error.kind, error.retryable, error.upstreamStatus]).toEqual([kind, retryable, status]);
    expect(error.retryAfterMs).toBe(6000);
  });

  it('keeps the upstream message and code of a content-filter refusal', async () => {
    const { provider } = await serve({ status: 400, json: json('error-content-filter') });
    const error = await rejection(provider.chat(request()));
    expect([error.code, error.upstreamCode, error.param]).toEqual(['content_filter', 'content_filter', 'prompt']);
    expect(error.message).toMatch(/content management policy/);
  });
});
