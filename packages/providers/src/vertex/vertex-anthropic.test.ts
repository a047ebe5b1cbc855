import { describe, expect, it } from 'vitest';
import { chatRequest } from '../test/chat-request.js';
import { fixtureFiles } from '../test/fixture-files.js';
import { collect, drainUntilError, rejection } from '../test/outcomes.js';
import { useFixtureProvider } from '../test/use-fixture-server.js';
import { createVertexProvider } from './vertex-provider.js';

const { json, chunks } = fixtureFiles(new URL('./__fixtures__/', import.meta.url));

const MODEL = 'claude-sonnet-4-5@20250929';
const base = chatRequest(MODEL);
const weatherTool = { name: 'get_weather', parameters: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] } };
const PATH = `/v1/projects/my-project/locations/europe-west1/publishers/anthropic/models/${MODEL}`;

const serve = useFixtureProvider((url) =>
  createVertexProvider({ project: 'my-project', location: 'europe-west1', accessToken: async () => 'ya29.token', baseUrl: url }),
);

describe('vertex anthropic', () => {
  it('sends the Messages body without model and with the Vertex anthropic_version to rawPredict', async () => {
    const { server, provider } = await serve({ json: json('claude-text') });
    const result = await provider.chat({ ...base, temperature: 0.5 }, { headers: { 'anthropic-beta': 'context-1m-2025-08-07' } });

    const [sent] = server.requests;
    expect(sent?.path).toBe(`${PATH}:rawPredict`);
    expect(sent?.headers.authorization).toBe('Bearer ya29.token');
    expect(sent?.headers['anthropic-beta']).toBe('context-1m-2025-08-07');
    expect(sent?.headers).not.toHaveProperty('x-api-key');
    expect(sent?.body).toEqual({
      anthropic_version: 'vertex-2023-10-16',
      max_tokens: 4096,
      system: [{ type: 'text', text: 'Be brief.' }],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
      temperature: 0.5,
    });
    expect(result).toEqual({
      id: 'msg_vrtx_01Lq6PUqu2Jkvk7uGyAnLdAn',
      model: 'claude-sonnet-4-5-20250929',
      choices: [{ index: 0, message: { role: 'assistant', content: 'Hello! How can I help you today?' }, finishReason: 'stop' }],
      usage: { promptTokens: 12, completionTokens: 11, totalTokens: 23 },
    });
  });

  it('maps tools and returns tool calls', async () => {
    const { server, provider } = await serve({ json: json('claude-tools') });
    const result = await provider.chat({ ...base, tools: [weatherTool], toolChoice: 'required' });
    expect(server.requests[0]?.body).toMatchObject({ tools: [{ name: 'get_weather', input_schema: weatherTool.parameters }], tool_choice: { type: 'any' } });
    expect(result.choices[0]).toEqual({
      index: 0,
      finishReason: 'tool_calls',
      message: { role: 'assistant', content: null, toolCalls: [{ id: 'toolu_vrtx_01A09q90qw90lq917835lq9', name: 'get_weather', arguments: '{"location":"Paris, France"}' }] },
    });
  });

  it('emulates JSON mode with the forced json_response tool', async () => {
    const { server, provider } = await serve({ json: json('claude-text') });
    await provider.chat({ ...base, responseFormat: { type: 'json_object' } });
    expect(server.requests[0]?.body).toMatchObject({ tool_choice: { type: 'tool', name: 'json_response' } });
  });

  it('streams token by token from streamRawPredict', async () => {
    const { server, provider } = await serve({ chunks: chunks('claude-text'), delayMs: 5 });
    const events = await collect(await provider.stream({ ...base, stream: true }));
    expect(server.requests[0]?.path).toBe(`${PATH}:streamRawPredict`);
    expect(server.requests[0]?.body).toMatchObject({ anthropic_version: 'vertex-2023-10-16', stream: true });
    expect(server.requests[0]?.body).not.toHaveProperty('model');
    expect(events).toEqual([
      { type: 'meta', id: 'msg_vrtx_01R3Kx5GJ2sWmVq4b8YtZfPo', model: 'claude-sonnet-4-5-20250929' },
      { type: 'text-delta', choice: 0, text: 'Hello' },
      { type: 'text-delta', choice: 0, text: '! How can I' },
      { type: 'text-delta', choice: 0, text: ' help you today?' },
      { type: 'finish', choice: 0, finishReason: 'stop' },
      { type: 'usage', usage: { promptTokens: 12, completionTokens: 11, totalTokens: 23 } },
    ]);
  });

  it('streams tool calls', async () => {
    const { provider } = await serve({ chunks: chunks('claude-tools') });
    const events = await collect(await provider.stream({ ...base, stream: true, tools: [weatherTool] }));
    expect(events.filter((event) => event.type === 'tool-call-delta')).toEqual([
      { type: 'tool-call-delta', choice: 0, index: 0, id: 'toolu_vrtx_01A09q90qw90lq917835lq9', name: 'get_weather', argumentsDelta: '' },
      { type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: '{"location":' },
      { type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: ' "Paris, France"}' },
    ]);
    expect(events.at(-2)).toEqual({ type: 'finish', choice: 0, finishReason: 'tool_calls' });
  });

  it('throws a mid-stream error event as a classified vertex error', async () => {
    const { provider } = await serve({ chunks: chunks('claude-stream-error') });
    const { events, error } = await drainUntilError(await provider.stream({ ...base, stream: true }));
    expect(events.map((event) => event.type)).toEqual(['meta', 'text-delta']);
    expect([error.provider, error.kind, error.upstreamCode]).toEqual(['vertex', 'overloaded', 'overloaded_error']);
  });

  it('throws when the connection drops mid-stream', async () => {
    const { provider } = await serve({ chunks: chunks('claude-text'), dropAfter: 4, delayMs: 5 });
    const error = await rejection(collect(await provider.stream({ ...base, stream: true })));
    expect([error.provider, error.kind]).toEqual(['vertex', 'network']);
  });

  it.each([
    ['claude-overloaded', 529, 'overloaded', undefined],
    ['claude-context-too-long', 400, 'context_length', undefined],
    ['claude-quota', 429, 'rate_limit', 12_000],
    ['unauthenticated', 401, 'authentication', undefined],
  ] as const)('classifies %s (%i) as %s, in either error shape', async (name, status, kind, retryAfterMs) => {
    const { provider } = await serve({ status, json: json(name) });
    const error = await rejection(provider.chat(base));
    expect([error.provider, error.kind, error.upstreamStatus, error.retryAfterMs]).toEqual(['vertex', kind, status, retryAfterMs]);
  });
});
