import { describe, expect, it } from 'vitest';
import { chatRequest, weatherTool } from '../test/chat-request.js';
import { fixtureFiles } from '../test/fixture-files.js';
import { collect, drainUntilError, rejection } from '../test/outcomes.js';
import { useFixtureProvider } from '../test/use-fixture-server.js';
import { createCohereProvider } from './cohere-provider.js';

const { json, chunks } = fixtureFiles(new URL('./__fixtures__/', import.meta.url));

const base = chatRequest('command-a-03-2025');

const serve = useFixtureProvider((url) => createCohereProvider({ apiKeys: ['co-1', 'co-2'], baseUrl: `${url}/` }));

describe('cohere chat', () => {
  it('posts a v2 chat request with a bearer key and maps text and billed usage', async () => {
    const { server, provider } = await serve({ json: json('text') });
    const result = await provider.chat(
      { ...base, maxTokens: 200, temperature: 0.3, topP: 0.9, frequencyPenalty: 0.1, presencePenalty: 0.2, stop: ['END'], seed: 7, user: 'u-1', n: 2 },
      { headers: { 'x-client-name': 'svc' } },
    );

    const sent = server.requests[0]!;
    expect(sent.path).toBe('/v2/chat');
    expect(sent.headers.authorization).toBe('Bearer co-1');
    expect(sent.headers['x-client-name']).toBe('svc');
    expect(sent.body).toEqual({
      model: 'command-a-03-2025',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hi' },
      ],
      max_tokens: 200,
      temperature: 0.3,
      p: 0.9,
      frequency_penalty: 0.1,
      presence_penalty: 0.2,
      stop_sequences: ['END'],
      seed: 7,
    });
    expect(result).toEqual({
      id: 'c14c80c3-18eb-4519-9460-6c92edd8cfb4',
      model: 'command-a-03-2025',
      choices: [{ index: 0, message: { role: 'assistant', content: 'Hello! How can I help you today?' }, finishReason: 'stop' }],
      usage: { promptTokens: 5, completionTokens: 9, totalTokens: 14 },
    });
    expect(provider.multipleChoices).toBe(false);
  });

  it('takes keys round-robin unless the call names one', async () => {
    const { server, provider } = await serve({ json: json('text') });
    await provider.chat(base);
    await provider.chat(base);
    await provider.chat(base, { apiKey: 'co-byok' });
    expect(server.requests.map((request) => request.headers.authorization)).toEqual(['Bearer co-1', 'Bearer co-2', 'Bearer co-byok']);
  });

  it('maps a tool conversation, images and tool choice onto the v2 wire', async () => {
    const { server, provider } = await serve({ json: json('tools') });
    const result = await provider.chat({
      ...base,
      messages: [
        { role: 'developer', content: 'Use tools.' },
        { role: 'user', content: [{ type: 'text', text: 'Weather here?' }, { type: 'image', url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'low' }] },
        { role: 'assistant', content: 'Checking.', toolCalls: [{ id: 'get_weather_1', name: 'get_weather', arguments: '{"location":"Paris"}' }, { id: 'get_time_1', name: 'get_time', arguments: '' }] },
        { role: 'tool', toolCallId: 'get_weather_1', content: '{"temp":21}' },
        { role: 'tool', toolCallId: 'get_time_1', content: [{ type: 'text', text: '12:00' }] },
      ],
      tools: [weatherTool, { name: 'get_time' }],
      toolChoice: 'required',
    });

    const body = server.requests[0]!.body as Record<string, unknown>;
    expect(body.messages).toEqual([
      { role: 'system', content: 'Use tools.' },
      { role: 'user', content: [{ type: 'text', text: 'Weather here?' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'low' } }] },
      {
        role: 'assistant',
        tool_plan: 'Checking.',
        tool_calls: [
          { id: 'get_weather_1', type: 'function', function: { name: 'get_weather', arguments: '{"location":"Paris"}' } },
          { id: 'get_time_1', type: 'function', function: { name: 'get_time', arguments: '{}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'get_weather_1', content: '{"temp":21}' },
      { role: 'tool', tool_call_id: 'get_time_1', content: [{ type: 'text', text: '12:00' }] },
    ]);
    expect(body.tools).toEqual([
      { type: 'function', function: weatherTool },
      { type: 'function', function: { name: 'get_time', parameters: { type: 'object', properties: {} } } },
    ]);
    expect(body.tool_choice).toBe('REQUIRED');
    expect(result.choices[0]).toEqual({
      index: 0,
      finishReason: 'tool_calls',
      message: {
        role: 'assistant',
        content: 'I will look up the weather in Paris and the current time.',
        toolCalls: [
          { id: 'get_weather_dqgshstja6p9', name: 'get_weather', arguments: '{"location":"Paris, France"}' },
          { id: 'get_time_dcxfx4myvx68', name: 'get_time', arguments: '{}' },
        ],
      },
    });
  });

  it('forces a named tool by narrowing the tool list, and maps none', async () => {
    const { server, provider } = await serve({ json: json('text') });
    await provider.chat({ ...base, tools: [weatherTool, { name: 'get_time' }], toolChoice: { name: 'get_time' } });
    await provider.chat({ ...base, tools: [weatherTool], toolChoice: 'none' });
    await provider.chat({ ...base, tools: [weatherTool], toolChoice: 'auto' });
    const bodies = server.requests.map((request) => request.body as Record<string, unknown>);
    expect(bodies[0]).toMatchObject({ tools: [{ function: { name: 'get_time' } }], tool_choice: 'REQUIRED' });
    expect((bodies[0]!.tools as unknown[]).length).toBe(1);
    expect(bodies[1]!.tool_choice).toBe('NONE');
    expect(bodies[2]).not.toHaveProperty('tool_choice');
  });

  it('refuses content Cohere cannot take and an unknown forced tool, without calling upstream', async () => {
    const { server, provider } = await serve({ json: json('text') });
    const audio = await rejection(provider.chat({ ...base, messages: [{ role: 'user', content: [{ type: 'audio', data: 'UklGRg==', format: 'wav' }] }] }));
    expect([audio.kind, audio.retryable, audio.param]).toEqual(['invalid_request', false, 'messages[0].content']);
    const tool = await rejection(provider.chat({ ...base, tools: [weatherTool], toolChoice: { name: 'nope' } }));
    expect([tool.kind, tool.param]).toEqual(['invalid_request', 'tool_choice']);
    expect(server.requests).toHaveLength(0);
  });

  it('sends JSON mode as json_object with the schema', async () => {
    const { server, provider } = await serve({ json: json('json-mode') });
    const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
    const result = await provider.chat({ ...base, responseFormat: { type: 'json_schema', name: 'city', schema } });
    await provider.chat({ ...base, responseFormat: { type: 'json_object' } });
    expect((server.requests[0]!.body as Record<string, unknown>).response_format).toEqual({ type: 'json_object', json_schema: schema });
    expect((server.requests[1]!.body as Record<string, unknown>).response_format).toEqual({ type: 'json_object' });
    expect(JSON.parse(result.choices[0]!.message.content!)).toEqual({ city: 'Paris', population: 2102650 });
  });

  it('maps MAX_TOKENS to length and thinking blocks to reasoning', async () => {
    const { provider } = await serve((index) => ({ json: json(index === 0 ? 'max-tokens' : 'reasoning') }));
    expect((await provider.chat(base)).choices[0]!.finishReason).toBe('length');
    expect((await provider.chat(base)).choices[0]!.message).toEqual({ role: 'assistant', content: '12,231', reasoning: '27 * 453 = 12231' });
  });

  it('throws on finish_reason ERROR instead of returning a cut answer', async () => {
    const { provider } = await serve({ json: json('generation-error') });
    const error = await rejection(provider.chat(base));
    expect([error.kind, error.retryable, error.upstreamCode]).toEqual(['server', true, 'ERROR']);
  });
});

describe('cohere stream', () => {
  it('passes text through token by token, then finish and usage', async () => {
    const { server, provider } = await serve({ chunks: chunks('text') });
    const events = await collect(await provider.stream({ ...base, stream: true }));
    expect(server.requests[0]!.body).toMatchObject({ stream: true });
    expect(server.requests[0]!.headers.accept).toBe('text/event-stream');
    expect(events).toEqual([
      { type: 'meta', id: '321d178c-2c12-44d3-ae42-2f5510f6b1cc' },
      { type: 'text-delta', choice: 0, text: 'Hello' },
      { type: 'text-delta', choice: 0, text: '!' },
      { type: 'text-delta', choice: 0, text: ' How can I' },
      { type: 'text-delta', choice: 0, text: ' help you today?' },
      { type: 'finish', choice: 0, finishReason: 'stop' },
      { type: 'usage', usage: { promptTokens: 5, completionTokens: 9, totalTokens: 14 } },
    ]);
  });

  it('streams the tool plan as text and tool calls by index, empty and null arguments as {}', async () => {
    const { provider } = await serve({ chunks: chunks('tools') });
    const events = await collect(await provider.stream({ ...base, stream: true, tools: [weatherTool, { name: 'get_time' }] }));
    expect(events.filter((event) => event.type === 'text-delta').map((event) => (event.type === 'text-delta' ? event.text : '')).join('')).toBe(
      'I will check the weather and the time.',
    );
    expect(events.filter((event) => event.type === 'tool-call-delta')).toEqual([
      { type: 'tool-call-delta', choice: 0, index: 0, id: 'get_weather_e8p4pn45zt0t', name: 'get_weather', argumentsDelta: '' },
      { type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: '{"' },
      { type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: 'location' },
      { type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: '": "' },
      { type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: 'Paris, France' },
      { type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: '"}' },
      { type: 'tool-call-delta', choice: 0, index: 1, id: 'get_time_y46ar19t5gvw', name: 'get_time', argumentsDelta: '' },
      { type: 'tool-call-delta', choice: 0, index: 1, argumentsDelta: '{}' },
      { type: 'tool-call-delta', choice: 0, index: 2, id: 'get_time_q81kd02mzx5c', name: 'get_time', argumentsDelta: '' },
      { type: 'tool-call-delta', choice: 0, index: 2, argumentsDelta: '{}' },
    ]);
    expect(events.slice(-2)).toEqual([
      { type: 'finish', choice: 0, finishReason: 'tool_calls' },
      { type: 'usage', usage: { promptTokens: 119, completionTokens: 44, totalTokens: 163 } },
    ]);
  });

  it('streams a JSON-mode answer as text', async () => {
    const { provider } = await serve({ chunks: chunks('json-mode') });
    const events = await collect(await provider.stream({ ...base, stream: true, responseFormat: { type: 'json_object' } }));
    const text = events.map((event) => (event.type === 'text-delta' ? event.text : '')).join('');
    expect(JSON.parse(text)).toEqual({ city: 'Paris', population: 2102650 });
  });

  it('throws when message-end reports ERROR, after the text that arrived', async () => {
    const { provider } = await serve({ chunks: chunks('stream-error') });
    const { events: seen, error } = await drainUntilError(await provider.stream({ ...base, stream: true }));
    expect(seen.map((event) => event.type)).toEqual(['meta', 'text-delta', 'text-delta']);
    expect(error).toMatchObject({ kind: 'server', retryable: true, message: 'internal server error, this has been reported to our developers' });
  });

  it('throws the classified error of an error event', async () => {
    const error = 'event: error\ndata: {"message":"too many tokens: prompt exceeds the context window"}\n\n';
    const { provider } = await serve({ chunks: [...chunks('text').slice(0, 3), error] });
    const { events: seen, error: thrown } = await drainUntilError(await provider.stream({ ...base, stream: true }));
    expect(seen.map((event) => event.type)).toEqual(['meta', 'text-delta']);
    expect(thrown).toMatchObject({ kind: 'context_length' });
  });

  it('throws, never ends quietly, when the connection drops or closes before message-end', async () => {
    const dropped = await serve({ chunks: chunks('text'), dropAfter: 4, delayMs: 5 });
    expect(await rejection(collect(await dropped.provider.stream({ ...base, stream: true })))).toMatchObject({ kind: 'network', retryable: true });
    const closed = await serve({ chunks: chunks('text').slice(0, -1) });
    expect((await rejection(collect(await closed.provider.stream({ ...base, stream: true })))).message).toMatch(/message-end/);
  });

  it('rejects before the first byte on a 429, so the caller can fall back', async () => {
    const { provider } = await serve({ status: 429, json: json('error-rate-limit'), headers: { 'retry-after': '3' } });
    const error = await rejection(provider.stream({ ...base, stream: true }));
    expect([error.kind, error.retryAfterMs]).toEqual(['rate_limit', 3000]);
  });
});

describe('cohere errors', () => {
  it.each([
    ['error-rate-limit', 429, 'rate_limit', true],
    ['error-trial-quota', 429, 'billing', true],
    ['error-too-many-tokens', 400, 'context_length', true],
    ['error-invalid-request', 400, 'invalid_request', false],
    ['error-unauthorized', 401, 'authentication', true],
    ['error-payment-required', 402, 'billing', true],
    ['error-unavailable', 503, 'overloaded', true],
    ['error-unavailable', 500, 'server', true],
  ] as const)('classifies %s (%i) as %s', async (fixture, status, kind, retryable) => {
    const { provider } = await serve({ status, json: json(fixture), headers: { 'retry-after': '3' } });
    const error = await rejection(provider.chat(base));
    expect([error.kind, error.retryable, error.upstreamStatus, error.retryAfterMs]).toEqual([kind, retryable, status, 3000]);
  });

  it('keeps the upstream message for the caller', async () => {
    const { provider } = await serve({ status: 400, json: json('error-too-many-tokens') });
    const error = await rejection(provider.chat(base));
    expect(error.message).toMatch(/^too many tokens: total number of tokens/);
    expect(error.code).toBe('context_length_exceeded');
  });
});
