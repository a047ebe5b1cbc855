import type { StreamEvent } from '@svc/core';
import { describe, expect, it } from 'vitest';
import type { ProviderChatRequest } from '../provider.js';
import { fixtureFiles } from '../test/fixture-files.js';
import type { FixtureReply } from '../test/fixture-server.js';
import { collect, drainUntilError } from '../test/outcomes.js';
import { useFixtureProvider, useFixtureServer } from '../test/use-fixture-server.js';
import { createOpenAIProvider } from './openai-provider.js';

const { chunks } = fixtureFiles(new URL('./__fixtures__/', import.meta.url));

const request = (overrides: Partial<ProviderChatRequest> = {}): ProviderChatRequest => ({
  model: 'gpt-4o-mini',
  messages: [{ role: 'user', content: 'Hi' }],
  stream: true,
  n: 1,
  includeUsage: false,
  ...overrides,
});

const startServer = useFixtureServer();

const serve = useFixtureProvider((url) => createOpenAIProvider({ apiKeys: ['sk-test'], baseUrl: `${url}/v1` }));

describe('openai stream', () => {
  it('streams text token by token and always asks for usage', async () => {
    const { server, provider } = await serve({ chunks: chunks('text') });
    const events = await collect(await provider.stream(request()));
    expect(server.requests[0]!.body).toEqual({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'Hi' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(events).toEqual([
      { type: 'meta', id: 'chatcmpl-BxQ8Tk5nL2pW9eR4yU7iO1aS6dF3G', model: 'gpt-4o-mini-2024-07-18', systemFingerprint: 'fp_34a54ae93c' },
      ...['Hello', '!', ' How', ' can', ' I', ' help', ' you', ' today', '?'].map((text) => ({ type: 'text-delta', choice: 0, text })),
      { type: 'finish', choice: 0, finishReason: 'stop' },
      { type: 'usage', usage: { promptTokens: 1342, completionTokens: 9, totalTokens: 1351, cachedPromptTokens: 1280 } },
    ]);
  });

  it('yields each event as it arrives, before the upstream finished', async () => {
    const { provider } = await serve({ chunks: chunks('text'), delayMs: 150 });
    const iterator = (await provider.stream(request()))[Symbol.asyncIterator]();
    const started = Date.now();
    await iterator.next(); // meta
    const first = await iterator.next();
    expect(first.value).toEqual({ type: 'text-delta', choice: 0, text: 'Hello' });
    expect(Date.now() - started).toBeLessThan(1000); // the whole stream takes ~1.8 s
    await iterator.return?.();
  });

  it('streams tool-call deltas with id and name on the first fragment', async () => {
    const { provider } = await serve({ chunks: chunks('tool-calls') });
    const events = await collect(await provider.stream(request({ tools: [{ name: 'get_weather' }, { name: 'get_time' }] })));
    const calls = events.filter((event) => event.type === 'tool-call-delta');
    expect(calls[0]).toEqual({ type: 'tool-call-delta', choice: 0, index: 0, id: 'call_9bXv3mQ1sW7cZp2Hk4Tn8Ly0', name: 'get_weather', argumentsDelta: '' });
    expect(calls[5]).toEqual({ type: 'tool-call-delta', choice: 0, index: 1, id: 'call_2hFe6Jd0Rq5Ua8Wm1Gx3Vo9C', name: 'get_time', argumentsDelta: '' });
    const joined = (index: number) =>
      calls
        .filter((event) => event.index === index)
        .map((event) => event.argumentsDelta)
        .join('');
    expect(JSON.parse(joined(0))).toEqual({ city: 'Paris' });
    expect(JSON.parse(joined(1))).toEqual({ tz: 'Asia/Tokyo' });
    expect(events.at(-2)).toEqual({ type: 'finish', choice: 0, finishReason: 'tool_calls' });
    expect(events.some((event) => event.type === 'text-delta')).toBe(false);
  });

  it('keeps choices apart and maps length and content_filter finishes', async () => {
    const { server, provider } = await serve({ chunks: chunks('two-choices') });
    const events = await collect(await provider.stream(request({ n: 2 })));
    expect(server.requests[0]!.body).toMatchObject({ n: 2 });
    expect(events.filter((event) => event.type === 'text-delta' || event.type === 'finish')).toEqual([
      { type: 'text-delta', choice: 0, text: 'Red' },
      { type: 'text-delta', choice: 1, text: 'Blue' },
      { type: 'finish', choice: 0, finishReason: 'length' },
      { type: 'finish', choice: 1, finishReason: 'content_filter' },
    ]);
  });

  it('leaves stream_options out for vendors that reject it', async () => {
    const server = await startServer(() => ({ chunks: chunks('text') }));
    const mistral = createOpenAIProvider({ id: 'mistral', apiKeys: ['k'], baseUrl: server.url, compatibility: { streamOptions: false } });
    await collect(await mistral.stream(request()));
    expect(server.requests[0]!.body).not.toHaveProperty('stream_options');
  });

  it('throws a mid-stream error event as a ProviderError after the tokens before it', async () => {
    const { provider } = await serve({ chunks: chunks('stream-error') });
    const { events, error } = await drainUntilError(await provider.stream(request()));
    expect(events.filter((event) => event.type === 'text-delta')).toHaveLength(3);
    expect(error.kind).toBe('server');
    expect(error.retryable).toBe(true);
    expect(error.message).toContain('The server had an error');
  });

  it('throws when the connection drops mid-stream', async () => {
    // delayMs lets the first writes reach the socket before the server destroys it.
    const { provider } = await serve({ chunks: chunks('text'), dropAfter: 4, delayMs: 20 });
    const { events, error } = await drainUntilError(await provider.stream(request()));
    expect(events.filter((event) => event.type === 'text-delta')).toHaveLength(3);
    expect(error.kind).toBe('network');
  });

  it('throws when the upstream closes cleanly before the answer finished', async () => {
    const { provider } = await serve({ chunks: chunks('text').slice(0, 5) });
    const { error } = await drainUntilError(await provider.stream(request()));
    expect(error.kind).toBe('server');
  });

  it('rejects stream() itself when the upstream fails before the first byte', async () => {
    const { provider } = await serve({ status: 429, headers: { 'retry-after': '3' }, json: { error: { message: 'slow down', type: 'requests', code: 'rate_limit_exceeded' } } } as FixtureReply);
    await expect(provider.stream(request())).rejects.toMatchObject({ kind: 'rate_limit', retryAfterMs: 3000 });
  });

  it('aborts the upstream when the signal fires mid-stream', async () => {
    const { provider } = await serve({ chunks: chunks('text'), delayMs: 100 });
    const controller = new AbortController();
    const stream = await provider.stream(request(), { signal: controller.signal });
    const events: StreamEvent[] = [];
    const run = (async () => {
      for await (const event of stream) {
        events.push(event);
        if (event.type === 'text-delta') controller.abort();
      }
    })();
    await expect(run).rejects.toMatchObject({ name: 'ProviderError', kind: 'timeout' });
    expect(events.filter((event) => event.type === 'text-delta')).toHaveLength(1);
  });
});
