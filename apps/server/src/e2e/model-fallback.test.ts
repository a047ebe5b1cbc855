import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { type MockUpstream, startMockUpstream } from '@svc/mock-upstream';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { masterKey, startGateway, upstreamProviders } from './harness.js';

type Gateway = Awaited<ReturnType<typeof startGateway>>;
type WithSvc = { svc_metadata?: { routing_decision: string; model: string } };
/** The OpenAI credential of the harness: the mock fails every request made with it while `failing` is set. */
const openaiKey = 'sk-upstream-openai';
const question = [{ role: 'user' as const, content: 'Which model answers?' }];
const chatPath = '/v1/chat/completions';

/** Issue 32, request controls: fallback models, per request (`models`, as OpenRouter takes it) and per model in SVC_CONFIG. */
describe('fallback models (mock upstream, OpenAI failing)', () => {
  let upstream: MockUpstream;
  let gateway: Gateway;
  let configured: Gateway;
  let openai: OpenAI;
  let dir: string;
  const hits = (path: string) => upstream.stats().byPath[path] ?? 0;
  const fail = (failing: boolean) => upstream.configure({ faultKeys: failing ? { [openaiKey]: '503' } : undefined });

  beforeAll(async () => {
    upstream = await startMockUpstream({ tokens: 6 });
    // No breakers and no retries: every request meets the failing provider afresh, once.
    const env = { ...upstreamProviders(upstream.url), SVC_BREAKER_CONSECUTIVE_FAILURES: '0', SVC_RETRY_MAX: '0' };
    dir = await mkdtemp(join(tmpdir(), 'svc-fallback-'));
    const config = join(dir, 'svc.yaml');
    await writeFile(config, 'models:\n  - id: openai/gpt-4o-mini\n    fallbacks: [gemini/gemini-2.5-flash]\n');
    [gateway, configured] = await Promise.all([startGateway(env), startGateway({ ...env, SVC_CONFIG: config })]);
    openai = new OpenAI({ baseURL: `${gateway.inferenceUrl}/v1`, apiKey: masterKey, maxRetries: 0 });
    fail(true);
  });
  afterAll(async () => {
    await Promise.all([gateway?.stop(), configured?.stop()]);
    await upstream?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const withModels = (models: string[], stream = false) => ({ model: 'openai/gpt-4o-mini', messages: question, models, ...(stream ? { stream: true } : {}) });

  it('chat completions: the next model answers after the pinned one failed, and the answer says which', async () => {
    const [chat, messages] = [hits(chatPath), hits('/v1/messages')];
    const { data, response } = await openai.chat.completions.create(withModels(['anthropic/claude-sonnet-4-5']) as OpenAI.ChatCompletionCreateParamsNonStreaming).withResponse();
    expect(data.model).toBe('anthropic/claude-sonnet-4-5');
    expect(response.headers.get('x-svc-model')).toBe('anthropic/claude-sonnet-4-5');
    expect((data as WithSvc).svc_metadata!.routing_decision).toContain('fallback from openai/gpt-4o-mini');
    // The pinned model was asked first, then the fallback, in its own wire.
    expect(hits(chatPath)).toBe(chat + 1);
    expect(hits('/v1/messages')).toBe(messages + 1);
    expect(upstream.stats().lastRequest).toMatchObject({ path: '/v1/messages', body: { model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: [{ type: 'text', text: 'Which model answers?' }] }] } });
  });

  it('without a fallback list the same failure is the answer', async () => {
    await expect(openai.chat.completions.create({ model: 'openai/gpt-4o-mini', messages: question })).rejects.toMatchObject({ status: 502 });
  });

  it('streams fall back before the first byte; the chunks name the answering model', async () => {
    const stream = await openai.chat.completions.create(withModels(['gemini/gemini-2.5-flash'], true) as OpenAI.ChatCompletionCreateParamsStreaming);
    const models = new Set<string>();
    let text = '';
    for await (const chunk of stream) {
      models.add(chunk.model);
      text += chunk.choices[0]?.delta.content ?? '';
    }
    expect([...models]).toEqual(['gemini/gemini-2.5-flash']);
    expect(text.length).toBeGreaterThan(0);
    expect(upstream.stats().lastRequest!.path).toContain('gemini-2.5-flash');
  });

  it('a healthy pinned model answers itself: the fallback is not called', async () => {
    fail(false);
    try {
      const before = hits('/v1/messages');
      const completion = await openai.chat.completions.create(withModels(['anthropic/claude-sonnet-4-5']) as OpenAI.ChatCompletionCreateParamsNonStreaming);
      expect(completion.model).toBe('openai/gpt-4o-mini');
      expect(hits('/v1/messages')).toBe(before);
    } finally {
      fail(true);
    }
  });

  it('Messages: the Anthropic SDK gets the fallback too', async () => {
    const anthropic = new Anthropic({ baseURL: gateway.inferenceUrl, apiKey: masterKey, maxRetries: 0 });
    const body = { model: 'openai/gpt-4o-mini', max_tokens: 64, messages: question, models: ['anthropic/claude-sonnet-4-5'] } as Anthropic.MessageCreateParamsNonStreaming;
    const message = await anthropic.messages.create(body);
    expect(message.model).toBe('anthropic/claude-sonnet-4-5');
    expect(upstream.stats().lastRequest!.path).toBe('/v1/messages');
  });

  it('an unknown fallback is 404 model_not_found naming its place in models, before any upstream call', async () => {
    const before = upstream.stats().total;
    const bad = openai.chat.completions.create(withModels(['anthropic/claude-sonnet-4-5', 'acme/unknown']) as OpenAI.ChatCompletionCreateParamsNonStreaming);
    await expect(bad).rejects.toMatchObject({ status: 404, code: 'model_not_found', param: 'models[1]' });
    const empty = openai.chat.completions.create(withModels([]) as OpenAI.ChatCompletionCreateParamsNonStreaming);
    await expect(empty).rejects.toMatchObject({ status: 400, param: 'models' });
    expect(upstream.stats().total).toBe(before);
  });

  it("SVC_CONFIG's fallbacks serve an explicit model when the request lists none; a request's models replace them", async () => {
    const client = new OpenAI({ baseURL: `${configured.inferenceUrl}/v1`, apiKey: masterKey, maxRetries: 0 });
    const completion = await client.chat.completions.create({ model: 'openai/gpt-4o-mini', messages: question });
    expect(completion.model).toBe('gemini/gemini-2.5-flash');
    expect(upstream.stats().lastRequest!.path).toContain('gemini-2.5-flash');
    const listed = await client.chat.completions.create(withModels(['anthropic/claude-sonnet-4-5']) as OpenAI.ChatCompletionCreateParamsNonStreaming);
    expect(listed.model).toBe('anthropic/claude-sonnet-4-5');
  });
});
