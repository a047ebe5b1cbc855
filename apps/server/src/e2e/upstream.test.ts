import { type MockUpstream, startMockUpstream } from '@svc/mock-upstream';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { masterKey, startGateway, upstreamProviders } from './harness.js';

type Gateway = Awaited<ReturnType<typeof startGateway>>;

/**
 * The real provider adapters over HTTP against the project's mock upstream: OpenAI,
 * Anthropic and Gemini wire formats, plus two OpenAI-compatible vendors serving the same
 * model family (for fallback).
 */
describe('gateway -> real adapters -> mock upstream', () => {
  let upstream: MockUpstream;
  let gateway: Gateway;
  let client: OpenAI;

  beforeAll(async () => {
    upstream = await startMockUpstream({ tokens: 12 });
    gateway = await startGateway({
      ...upstreamProviders(upstream.url),
      GROQ_API_KEY: 'gsk-1',
      GROQ_BASE_URL: `${upstream.url}/v1`,
      TOGETHER_API_KEY: 'tg-1',
      TOGETHER_BASE_URL: `${upstream.url}/v1`,
    });
    client = new OpenAI({ baseURL: `${gateway.inferenceUrl}/v1`, apiKey: masterKey, maxRetries: 0 });
  });
  afterAll(async () => {
    await gateway?.stop();
    await upstream?.close();
  });
  beforeEach(() => {
    upstream.configure({ fault: undefined, failFirst: undefined, latencyMs: 0, tokensPerSecond: 0 });
    upstream.resetStats();
  });

  const ask = (content = 'Say hello') => [{ role: 'user' as const, content }];

  it('has no mock provider when real keys are configured', async () => {
    const ids: string[] = [];
    for await (const model of client.models.list()) ids.push(model.id);
    expect(ids.some((id) => id.startsWith('mock/'))).toBe(false);
    expect(ids).toEqual(expect.arrayContaining(['openai/gpt-4o-mini']));
  });

  it('sends OpenAI requests with the pooled key and returns the upstream answer', async () => {
    const answer = await client.chat.completions.create({ model: 'openai/gpt-4o-mini', messages: ask() });
    expect(answer.choices[0]!.message.content).toBeTruthy();
    const sent = upstream.stats().lastRequest!;
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.headers.authorization).toBe('Bearer sk-upstream-openai');
    expect(sent.body).toMatchObject({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Say hello' }] });
  });

  it('streams from the Anthropic and Gemini adapters token by token', async () => {
    for (const provider of ['anthropic', 'gemini'] as const) {
      const model = gateway.runtime.catalog.list({ provider, kind: 'chat' })[0]!;
      const stream = await client.chat.completions.create({ model: model.id, messages: ask(), stream: true, stream_options: { include_usage: true } });
      let pieces = 0;
      let usage: OpenAI.CompletionUsage | undefined;
      for await (const chunk of stream) {
        if (chunk.choices[0]?.delta.content) pieces++;
        if (chunk.usage) usage = chunk.usage;
      }
      expect(pieces, provider).toBeGreaterThan(3);
      expect(usage!.completion_tokens, provider).toBeGreaterThan(0);
    }
  });

  it('falls back within the model family when the first provider fails before the first byte', async () => {
    const pinned = gateway.runtime.catalog.get('groq/llama-3.3-70b-versatile') ?? gateway.runtime.catalog.list({ provider: 'groq', kind: 'chat' }).find((m) => gateway.runtime.catalog.family(m.family).some((s) => s.provider === 'together'))!;
    upstream.configure({ fault: '503', failFirst: 1 });
    const { data, response } = await client.chat.completions.create({ model: pinned.id, messages: ask(), stream: true }).withResponse();
    let text = '';
    for await (const chunk of data) text += chunk.choices[0]?.delta.content ?? '';
    expect(text.length).toBeGreaterThan(0);
    expect(response.headers.get('x-svc-provider')).toBe('together');
    await gateway.runtime.learn.flush();
    const decision = await gateway.runtime.db.decisions.get(response.headers.get('x-svc-request-id')!);
    expect(decision!.attempts).toMatchObject([
      { provider: 'groq', outcome: 'error', errorKind: 'overloaded', upstreamStatus: 503 },
      { provider: 'together', outcome: 'ok' },
    ]);
  });

  it('answers an ordinary HTTP error when every candidate fails before the first byte', async () => {
    upstream.configure({ fault: '500' });
    await expect(client.chat.completions.create({ model: 'openai/gpt-4o-mini', messages: ask(), stream: true })).rejects.toMatchObject({ status: 502, code: 'provider_error' });
  });

  it('moves a context overflow to a larger-context model, and answers 400 when none can take it', async () => {
    const llama = gateway.runtime.catalog.list({ provider: 'groq', kind: 'chat' }).find((m) => gateway.runtime.catalog.family(m.family).some((s) => s.provider === 'together'))!;
    upstream.configure({ fault: 'context-length', failFirst: 1 });
    const { response } = await client.chat.completions.create({ model: llama.id, messages: ask() }).withResponse();
    const served = gateway.runtime.catalog.get(response.headers.get('x-svc-model')!)!;
    expect(served.contextWindow).toBeGreaterThan(llama.contextWindow);
    upstream.configure({ fault: 'context-length', failFirst: undefined });
    await expect(client.chat.completions.create({ model: llama.id, messages: ask() })).rejects.toMatchObject({ status: 400, code: 'context_length_exceeded' });
  });

  it('ends a stream that breaks after the first byte with an error event, never [DONE]', async () => {
    upstream.configure({ fault: 'drop-mid-stream', tokens: 12 });
    const response = await fetch(`${gateway.inferenceUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${masterKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'openai/gpt-4o-mini', messages: ask(), stream: true }),
    });
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).toContain('"error"');
    expect(text).not.toContain('[DONE]');
    const sdk = client.chat.completions.create({ model: 'openai/gpt-4o-mini', messages: ask(), stream: true });
    await expect((async () => {
      for await (const _ of await sdk) {
        // drain
      }
    })()).rejects.toThrow();
  });

  it('aborts the upstream call when the client goes away', async () => {
    upstream.configure({ tokensPerSecond: 20, tokens: 200 });
    const controller = new AbortController();
    const { data, response } = await client.chat.completions
      .create({ model: 'openai/gpt-4o-mini', messages: ask(), stream: true }, { signal: controller.signal })
      .withResponse();
    let seen = 0;
    try {
      for await (const chunk of data) {
        if (chunk.choices[0]?.delta.content && ++seen === 2) controller.abort();
      }
    } catch {
      // the SDK throws APIUserAbortError
    }
    const requestId = response.headers.get('x-svc-request-id')!;
    await expect.poll(async () => {
      await gateway.runtime.learn.flush();
      return (await gateway.runtime.db.decisions.get(requestId))?.outcome;
    }, { timeout: 5_000 }).toBe('client_closed');
  }, 15_000);
});
