import { describe, expect, it } from 'vitest';
import type { ProviderChatRequest } from '../provider.js';
import { fixtureFiles } from '../test/fixture-files.js';
import { collect, drainUntilError, rejection } from '../test/outcomes.js';
import { useFixtureServer } from '../test/use-fixture-server.js';
import { createBedrockProvider } from './bedrock-provider.js';
import { type EventStreamReply, type RecordedFrame, encodeFrames, useEventStreamServer } from './bedrock-test-server.js';

const { json } = fixtureFiles(new URL('./__fixtures__/', import.meta.url));
const frames = (name: string): Uint8Array[] => encodeFrames(json(`${name}.events`) as RecordedFrame[]);

const MODEL = 'anthropic.claude-sonnet-4-5-20250929-v1:0';
const base: ProviderChatRequest = { model: MODEL, messages: [{ role: 'user', content: 'Hi' }], stream: true, n: 1, includeUsage: true };
const weatherTool = { name: 'get_weather', parameters: { type: 'object', properties: { location: { type: 'string' } } } };

const startStreamServer = useEventStreamServer();
const startJsonServer = useFixtureServer();

async function serve(reply: Omit<EventStreamReply, 'frames'> & { frames: string | Uint8Array[] }) {
  const server = await startStreamServer(() => ({ ...reply, frames: typeof reply.frames === 'string' ? frames(reply.frames) : reply.frames }));
  const provider = createBedrockProvider({ region: 'eu-west-1', credentials: { accessKeyId: 'AKID', secretAccessKey: 'SECRET' }, baseUrl: server.url });
  return { server, provider };
}

describe('bedrock stream', () => {
  it('decodes event-stream frames token by token, even split across chunks', async () => {
    const { server, provider } = await serve({ frames: 'text', splitBytes: 7, delayMs: 1 });
    const events = await collect(await provider.stream(base));

    const [sent] = server.requests;
    expect(sent?.path).toBe('/model/anthropic.claude-sonnet-4-5-20250929-v1%3A0/converse-stream');
    expect(sent?.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKID\/\d{8}\/eu-west-1\/bedrock\/aws4_request, /);
    expect(events).toEqual([
      { type: 'meta', id: 'req-stream-1', model: MODEL },
      { type: 'text-delta', choice: 0, text: 'Hello' },
      { type: 'text-delta', choice: 0, text: '!' },
      { type: 'text-delta', choice: 0, text: ' How can I' },
      { type: 'text-delta', choice: 0, text: ' help you today?' },
      { type: 'finish', choice: 0, finishReason: 'stop' },
      { type: 'usage', usage: { promptTokens: 1812, completionTokens: 11, totalTokens: 1823, cachedPromptTokens: 1800 } },
    ]);
  });

  it('delivers the first token before the upstream finished', async () => {
    const { provider } = await serve({ frames: 'text', delayMs: 150 });
    const started = Date.now();
    const events = (await provider.stream(base))[Symbol.asyncIterator]();
    expect((await events.next()).value).toMatchObject({ type: 'meta' });
    expect((await events.next()).value).toEqual({ type: 'text-delta', choice: 0, text: 'Hello' });
    expect(Date.now() - started).toBeLessThan(800);
    await events.return?.(undefined);
  });

  it('closes the upstream connection when the consumer stops early', async () => {
    const { server, provider } = await serve({ frames: 'text', delayMs: 100 });
    for await (const event of await provider.stream(base)) {
      if (event.type === 'text-delta') break;
    }
    expect(await server.closed()).toEqual({ complete: false });
  });

  it('streams tool calls by ordinal with id and name first', async () => {
    const { provider } = await serve({ frames: 'tools' });
    const events = await collect(await provider.stream({ ...base, tools: [weatherTool, { name: 'get_time' }] }));
    expect(events.filter((event) => event.type === 'tool-call-delta')).toEqual([
      { type: 'tool-call-delta', choice: 0, index: 0, id: 'tooluse_kZJMlvQmRJ6eAyJE5GIl7Q', name: 'get_weather', argumentsDelta: '' },
      { type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: '{"location":' },
      { type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: ' "Paris, France"}' },
      { type: 'tool-call-delta', choice: 0, index: 1, id: 'tooluse_Zt7ivKkNR2mW5CmBQWd2lA', name: 'get_time', argumentsDelta: '' },
      { type: 'tool-call-delta', choice: 0, index: 1, argumentsDelta: '{}' },
    ]);
    expect(events.slice(-2)).toEqual([
      { type: 'finish', choice: 0, finishReason: 'tool_calls' },
      { type: 'usage', usage: { promptTokens: 402, completionTokens: 95, totalTokens: 497 } },
    ]);
  });

  it('streams a JSON-mode answer as text', async () => {
    const { provider } = await serve({ frames: 'json-mode' });
    const events = await collect(await provider.stream({ ...base, responseFormat: { type: 'json_object' } }));
    const text = events.map((event) => (event.type === 'text-delta' ? event.text : '')).join('');
    expect(JSON.parse(text)).toEqual({ city: 'Paris', population: 2102650 });
    expect(events.at(-2)).toEqual({ type: 'finish', choice: 0, finishReason: 'stop' });
  });

  it('streams reasoning and maps max_tokens to length', async () => {
    const { provider } = await serve({ frames: 'reasoning' });
    const events = await collect(await provider.stream({ ...base, reasoning: { maxTokens: 2000 } }));
    expect(events.slice(1, 3)).toEqual([
      { type: 'reasoning-delta', choice: 0, text: '27 * 453 = 12231' },
      { type: 'text-delta', choice: 0, text: '12,231' },
    ]);
    expect(events.at(-2)).toEqual({ type: 'finish', choice: 0, finishReason: 'length' });
  });

  it.each([
    ['stream-throttling', 'rate_limit', 'throttlingException', ['meta', 'text-delta']],
    ['stream-model-error', 'server', 'modelStreamErrorException', ['meta']],
    ['stream-context-too-long', 'context_length', 'validationException', []],
  ] as const)('throws the classified in-stream exception of %s', async (name, kind, code, before) => {
    const { provider } = await serve({ frames: name });
    const { events, error } = await drainUntilError(await provider.stream(base));
    expect(events.map((event) => event.type)).toEqual(before);
    expect([error.kind, error.upstreamCode]).toEqual([kind, code]);
  });

  it('throws an unmodelled error frame as a ProviderError', async () => {
    const { provider } = await serve({ frames: [...frames('text').slice(0, 2), ...encodeFrames([{ error: 'InternalFailure', message: 'boom' }])] });
    const { events, error } = await drainUntilError(await provider.stream(base));
    expect(events.map((event) => event.type)).toEqual(['meta', 'text-delta']);
    expect([error.kind, error.upstreamCode, error.message]).toEqual(['server', 'InternalFailure', 'boom']);
  });

  it('rejects before the first byte when throttled', async () => {
    const server = await startJsonServer(() => ({
      status: 429,
      headers: { 'x-amzn-errortype': 'ThrottlingException:http://internal.amazon.com/coral/com.amazon.bedrock/' },
      json: { message: 'Too many requests, please wait before trying again.' },
    }));
    const provider = createBedrockProvider({ region: 'us-east-1', credentials: { accessKeyId: 'AKID', secretAccessKey: 'SECRET' }, baseUrl: server.url });
    const error = await rejection(provider.stream(base));
    expect([error.kind, error.upstreamStatus, error.retryable]).toEqual(['rate_limit', 429, true]);
  });

  it('throws a network error when the connection drops between frames', async () => {
    const { provider } = await serve({ frames: 'text', dropAfter: 3, delayMs: 5 });
    const { events, error } = await drainUntilError(await provider.stream(base));
    expect(events.map((event) => event.type)).toEqual(['meta', 'text-delta', 'text-delta']);
    expect([error.kind, error.retryable]).toEqual(['network', true]);
  });

  it('throws a network error when the connection drops mid-frame', async () => {
    const { provider } = await serve({ frames: 'text', splitBytes: 10, dropAfter: 15, delayMs: 1 });
    const { error } = await drainUntilError(await provider.stream(base));
    expect([error.kind, error.retryable]).toEqual(['network', true]);
  });

  it('throws when the stream ends cleanly but before messageStop', async () => {
    const { provider } = await serve({ frames: frames('text').slice(0, 5) });
    const { error } = await drainUntilError(await provider.stream(base));
    expect([error.kind, error.message]).toEqual(['server', 'bedrock stream ended before messageStop.']);
  });

  it('throws when a frame ends cut short with the body', async () => {
    const all = frames('text');
    const cut = all[1]!.subarray(0, 20);
    const { provider } = await serve({ frames: [all[0]!, cut] });
    const { error } = await drainUntilError(await provider.stream(base));
    expect(error.kind).toBe('network');
  });
});
