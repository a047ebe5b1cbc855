import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { masterKey } from './harness.js';
import { sdkClients, useMockedGateway } from './mocked-gateway.js';

/** The server's maximum request time in this suite. */
const serverMaxMs = 2_500;
const timedOut = { status: 504, type: 'upstream_error', code: 'request_timeout' };

/** Issue 32, request controls: a per-request timeout, bounded by the server's, answered 504 request_timeout. */
describe('per-request timeout (mock upstream)', () => {
  const mocked = useMockedGateway({ SVC_REQUEST_TIMEOUT_MS: String(serverMaxMs) });
  const question = [{ role: 'user' as const, content: 'Take your time.' }];
  afterEach(() => mocked.upstream.configure({ latencyMs: 0, tokensPerSecond: 0, tokens: 6 }));

  const timed = async <T>(work: Promise<T>) => {
    const started = performance.now();
    const outcome = await work.then(
      (value) => ({ value, error: undefined }),
      (error: unknown) => ({ value: undefined, error }),
    );
    return { ...outcome, ms: performance.now() - started };
  };

  it('svc.timeout_ms ends a slow JSON answer with 504 request_timeout once it passes, after the upstream was asked', async () => {
    mocked.upstream.configure({ latencyMs: 2_000 });
    const before = mocked.upstream.stats().total;
    const body = { model: 'openai/gpt-4o-mini', messages: question, svc: { timeout_ms: 300 } } as OpenAI.ChatCompletionCreateParamsNonStreaming;
    const { error, ms } = await timed(mocked.openai.chat.completions.create(body));
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect(error).toMatchObject(timedOut);
    expect((error as Error).message).toContain('300 ms');
    expect(ms).toBeLessThan(1_500);
    expect(mocked.upstream.stats().total).toBeGreaterThan(before);
    expect(mocked.upstream.stats().lastRequest!.body).toMatchObject({ model: 'gpt-4o-mini' });
  });

  it('the x-svc-timeout-ms header wins over the body, and a fast answer within the timeout is served', async () => {
    mocked.upstream.configure({ latencyMs: 1_200 });
    const body = { model: 'openai/gpt-4o-mini', messages: question, svc: { timeout_ms: 60_000 } } as OpenAI.ChatCompletionCreateParamsNonStreaming;
    const { error } = await timed(mocked.openai.chat.completions.create(body, { headers: { 'x-svc-timeout-ms': '300' } }));
    expect(error).toMatchObject(timedOut);
    mocked.upstream.configure({ latencyMs: 0 });
    await expect(mocked.openai.chat.completions.create(body, { headers: { 'x-svc-timeout-ms': '2000' } })).resolves.toMatchObject({ object: 'chat.completion' });
  });

  it("is bounded by the server's maximum: a longer timeout still ends at SVC_REQUEST_TIMEOUT_MS", async () => {
    mocked.upstream.configure({ latencyMs: 6_000 });
    const body = { model: 'openai/gpt-4o-mini', messages: question, svc: { timeout_ms: 60_000 } } as OpenAI.ChatCompletionCreateParamsNonStreaming;
    const { error, ms } = await timed(mocked.openai.chat.completions.create(body));
    expect(error).toMatchObject(timedOut);
    expect((error as Error).message).toContain(`${serverMaxMs} ms`);
    expect(ms).toBeLessThan(serverMaxMs + 1_500);
  }, 15_000);

  it('rejects a malformed header with 400 naming it, before any upstream call', async () => {
    const before = mocked.upstream.stats().total;
    const bad = mocked.openai.chat.completions.create({ model: 'openai/gpt-4o-mini', messages: question }, { headers: { 'x-svc-timeout-ms': '1.5s' } });
    await expect(bad).rejects.toMatchObject({ status: 400, param: 'x-svc-timeout-ms' });
    const zero = mocked.openai.chat.completions.create({ model: 'openai/gpt-4o-mini', messages: question, svc: { timeout_ms: 0 } } as OpenAI.ChatCompletionCreateParamsNonStreaming);
    await expect(zero).rejects.toMatchObject({ status: 400, param: 'svc.timeout_ms' });
    expect(mocked.upstream.stats().total).toBe(before);
  });

  it('a stream past its timeout ends with the error event after its first tokens, and its partial spend is in the ledger', async () => {
    const org = await mocked.gateway.runtime.db.orgs.create({ name: `timeout-e2e-${Date.now()}` });
    const { secret } = await mocked.gateway.runtime.authenticator.issue({ orgId: org.id, scopes: ['inference:chat'] });
    const tenant = sdkClients(mocked.gateway, secret).openai;
    mocked.upstream.configure({ tokens: 40, tokensPerSecond: 10 });
    const since = new Date(Date.now() - 1_000);
    const stream = await tenant.chat.completions.create({ model: 'openai/gpt-4o-mini', stream: true, messages: question }, { headers: { 'x-svc-timeout-ms': '800' } });
    let text = '';
    const read = async () => {
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    };
    await expect(read()).rejects.toMatchObject({ message: expect.stringContaining('800 ms') });
    expect(text.length).toBeGreaterThan(0);
    await mocked.gateway.runtime.learn.flush();
    await expect
      .poll(async () => {
        await mocked.gateway.runtime.learn.flush();
        return mocked.gateway.runtime.db.usage.summary(org.id, since);
      })
      .toMatchObject({ requests: 1, completionTokens: expect.any(Number) });
    const summary = await mocked.gateway.runtime.db.usage.summary(org.id, since);
    expect(summary.completionTokens).toBeGreaterThan(0);
    expect(summary.costUsd).toBeGreaterThan(0);
  });

  it('Messages: the Anthropic SDK sees 504 request_timeout too', async () => {
    mocked.upstream.configure({ latencyMs: 2_000 });
    const _anthropic = new Anthropic({ baseURL: mocked.gateway.inferenceUrl, apiKey: masterKey, maxRetries: 0 });
    const slow = mocked.anthropic.messages.create({ model: 'anthropic/claude-sonnet-4-5', max_tokens: 64, messages: question }, { headers: { 'x-svc-timeout-ms': '300' } });
    await expect(slow).rejects.toMatchObject({ status: 504 });
    expect(mocked.upstream.stats().lastRequest!.path).toBe('/v1/messages');
  });
});
