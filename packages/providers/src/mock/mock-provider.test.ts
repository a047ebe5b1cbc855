import { type StreamEvent, isProviderError } from '@svc/core';
import { describe, expect, it } from 'vitest';
import type { ProviderChatRequest } from '../provider.js';
import { collect } from '../test/outcomes.js';
import { createMockProvider } from './mock-provider.js';

const request = (content: string, overrides: Partial<ProviderChatRequest> = {}): ProviderChatRequest => ({
  model: 'mock-1',
  messages: [{ role: 'user', content }],
  stream: false,
  n: 1,
  includeUsage: false,
  ...overrides,
});

const weatherTool = {
  name: 'get_weather',
  parameters: {
    type: 'object',
    properties: {
      city: { type: 'string' },
      days: { type: 'integer', minimum: 1 },
      unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
      hourly: { type: 'boolean' },
      tags: { type: 'array', items: { type: 'string' } },
      at: { type: 'string', format: 'date-time' },
    },
    required: ['city'],
  },
};

describe('mock provider', () => {
  const mock = createMockProvider();

  it('answers deterministically from the prompt, a few dozen tokens, with usage', async () => {
    const a = await mock.chat(request('Tell me about gateways'));
    const b = await mock.chat(request('Tell me about gateways'));
    const other = await mock.chat(request('Something else entirely'));
    expect(a.choices).toEqual(b.choices);
    expect(a.usage).toEqual(b.usage);
    expect(other.choices[0]!.message.content).not.toBe(a.choices[0]!.message.content);
    const content = a.choices[0]!.message.content!;
    expect(content).toMatch(/^[A-Z].*\.$/);
    expect(a.usage!.completionTokens).toBeGreaterThanOrEqual(16);
    expect(a.usage!.completionTokens).toBeLessThan(48);
    expect(a.usage!.promptTokens).toBe(Math.ceil(('Tell me about gateways'.length + 'user'.length) / 4));
    expect(a.usage!.totalTokens).toBe(a.usage!.promptTokens + a.usage!.completionTokens);
    expect(a.model).toBe('mock-1');
    expect(a.choices[0]!.finishReason).toBe('stop');
  });

  it('honours n with distinct, stable choices', async () => {
    const result = await mock.chat(request('Pick a colour', { n: 3 }));
    expect(result.choices.map((choice) => choice.index)).toEqual([0, 1, 2]);
    expect(new Set(result.choices.map((choice) => choice.message.content)).size).toBe(3);
    expect((await mock.chat(request('Pick a colour', { n: 3 }))).choices).toEqual(result.choices);
  });

  it('stops at max_tokens with finish_reason length', async () => {
    const result = await mock.chat(request('Write a long story', { maxTokens: 5 }));
    expect(result.choices[0]!.finishReason).toBe('length');
    expect(result.usage!.completionTokens).toBe(5);
    expect(result.choices[0]!.message.content!.split(' ')).toHaveLength(5);
  });

  it('calls a required tool with schema-shaped JSON arguments', async () => {
    const result = await mock.chat(request('Weather in Paris?', { tools: [weatherTool], toolChoice: 'required' }));
    const choice = result.choices[0]!;
    expect(choice.finishReason).toBe('tool_calls');
    expect(choice.message.content).toBeNull();
    const call = choice.message.toolCalls![0]!;
    expect(call.name).toBe('get_weather');
    expect(call.id).toMatch(/^call_mock_/);
    const args = JSON.parse(call.arguments) as Record<string, unknown>;
    expect(typeof args.city).toBe('string');
    expect(Number.isInteger(args.days)).toBe(true);
    expect(args.unit).toBe('celsius');
    expect(typeof args.hourly).toBe('boolean');
    expect(Array.isArray(args.tags)).toBe(true);
    expect(Number.isNaN(Date.parse(String(args.at)))).toBe(false);
  });

  it('calls a tool when the prompt asks for it, and answers in text after the tool result', async () => {
    const tools = [{ name: 'lookup' }, weatherTool];
    const asked = await mock.chat(request('Please use get_weather for Oslo', { tools }));
    expect(asked.choices[0]!.message.toolCalls![0]!.name).toBe('get_weather');
    const plain = await mock.chat(request('Say hello', { tools }));
    expect(plain.choices[0]!.message.toolCalls).toBeUndefined();
    const after = await mock.chat({
      ...request('Please use get_weather for Oslo', { tools }),
      messages: [
        { role: 'user', content: 'Please use get_weather for Oslo' },
        { role: 'assistant', content: null, toolCalls: [{ id: 'c1', name: 'get_weather', arguments: '{}' }] },
        { role: 'tool', toolCallId: 'c1', content: '{"temp":3}' },
      ],
    });
    expect(after.choices[0]!.finishReason).toBe('stop');
    const named = await mock.chat(request('Anything', { tools, toolChoice: { name: 'lookup' } }));
    expect(named.choices[0]!.message.toolCalls![0]).toMatchObject({ name: 'lookup', arguments: '{}' });
    await expect(mock.chat(request('x', { tools, toolChoice: { name: 'missing' } }))).rejects.toMatchObject({ kind: 'invalid_request' });
  });

  it('answers valid JSON in JSON mode, schema-shaped when a schema is given', async () => {
    const object = await mock.chat(request('Give me JSON', { responseFormat: { type: 'json_object' } }));
    expect(JSON.parse(object.choices[0]!.message.content!)).toEqual({ answer: expect.any(String) });
    const schema = { type: 'object', properties: { name: { type: 'string' }, age: { type: 'integer' }, emails: { type: 'array', items: { type: 'string', format: 'email' } } } };
    const shaped = await mock.chat(request('Give me a person', { responseFormat: { type: 'json_schema', name: 'person', schema } }));
    const value = JSON.parse(shaped.choices[0]!.message.content!) as Record<string, unknown>;
    expect(Object.keys(value)).toEqual(['name', 'age', 'emails']);
    expect(value.emails).toEqual(['user@example.com']);
    // A scripted reply still wins: how tests get a malformed JSON answer to heal.
    const scripted = await mock.chat(request('Give me a person [mock:reply={"name": "Ada", "age": "36"}]', { responseFormat: { type: 'json_schema', name: 'person', schema } }));
    expect(scripted.choices[0]!.message.content).toBe('{"name": "Ada", "age": "36"}');
  });

  it('streams token by token with the same text as chat, then finish and usage', async () => {
    const chat = await mock.chat(request('Stream this'));
    const events = await collect(await mock.stream(request('Stream this', { stream: true })));
    expect(events[0]).toMatchObject({ type: 'meta', model: 'mock-1' });
    const deltas = events.filter((event) => event.type === 'text-delta');
    expect(deltas.length).toBe(chat.usage!.completionTokens);
    expect(deltas.map((event) => event.text).join('')).toBe(chat.choices[0]!.message.content);
    expect(events.at(-2)).toEqual({ type: 'finish', choice: 0, finishReason: 'stop' });
    expect(events.at(-1)).toEqual({ type: 'usage', usage: chat.usage });
  });

  it('streams tool-call deltas that concatenate to the arguments', async () => {
    const events = await collect(await mock.stream(request('x', { stream: true, tools: [weatherTool], toolChoice: 'required' })));
    const calls = events.filter((event) => event.type === 'tool-call-delta');
    expect(calls[0]).toMatchObject({ index: 0, name: 'get_weather', id: expect.stringMatching(/^call_mock_/) });
    expect(calls.slice(1).every((event) => event.id === undefined)).toBe(true);
    expect(JSON.parse(calls.map((event) => event.argumentsDelta).join(''))).toHaveProperty('city');
  });

  it('paces the stream: first-token latency, then one token per interval', async () => {
    const paced = createMockProvider({ latencyMs: 60, tokensPerSecond: 50 });
    const started = performance.now();
    const arrivals: number[] = [];
    for await (const event of await paced.stream(request('[mock:tokens=6] pace me', { stream: true }))) {
      if (event.type === 'text-delta') arrivals.push(performance.now() - started);
    }
    expect(arrivals).toHaveLength(6);
    expect(arrivals[0]!).toBeGreaterThanOrEqual(55);
    // Token i is due 20 ms * i after the first: spread over ~100 ms, never one burst.
    for (let i = 1; i < arrivals.length; i++) expect(arrivals[i]! - arrivals[0]!).toBeGreaterThanOrEqual(i * 20 - 10);
  });

  it('aborts a paced stream promptly', async () => {
    const paced = createMockProvider({ tokensPerSecond: 10 });
    const controller = new AbortController();
    const stream = await paced.stream(request('abort me', { stream: true }), { signal: controller.signal });
    const started = performance.now();
    setTimeout(() => controller.abort(), 150);
    const error = await collect(stream).catch((caught: unknown) => caught);
    expect(isProviderError(error) && error.kind).toBe('timeout');
    expect(performance.now() - started).toBeLessThan(400);
  });

  it('follows the documented directives', async () => {
    await expect(mock.chat(request('boom [mock:error=503]'))).rejects.toMatchObject({ kind: 'overloaded', upstreamStatus: 503 });
    await expect(mock.stream(request('[mock:error=429]', { stream: true }))).rejects.toMatchObject({ kind: 'rate_limit', retryAfterMs: 1000 });
    const reply = await mock.chat(request('[mock:reply=Hello there, friend]'));
    expect(reply.choices[0]!.message.content).toBe('Hello there, friend');
    const events: StreamEvent[] = [];
    const error = await (async () => {
      for await (const event of await mock.stream(request('[mock:stream-error-after=3]', { stream: true }))) events.push(event);
    })().catch((caught: unknown) => caught);
    expect(isProviderError(error) && error.kind).toBe('server');
    expect(events.filter((event) => event.type === 'text-delta')).toHaveLength(3);
  });
});
