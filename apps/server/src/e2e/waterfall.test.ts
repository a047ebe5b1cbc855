import { type MockUpstream, startMockUpstream } from '@svc/mock-upstream';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { masterKey, startGateway } from './harness.js';

type Gateway = Awaited<ReturnType<typeof startGateway>>;

/** Issue 3's waterfall rules against the mock upstream, failing by provider key. */
describe('waterfall rules over the wire', () => {
  let upstream: MockUpstream;
  let gateway: Gateway;
  let client: OpenAI;

  beforeAll(async () => {
    upstream = await startMockUpstream({ tokens: 6 });
    const v1 = `${upstream.url}/v1`;
    gateway = await startGateway({
      // Identical requests must reach the upstream: no answer cache here.
      SVC_CACHE_TTL_SECS: '0',
      OPENAI_API_KEY: 'openai-a,openai-b',
      OPENAI_BASE_URL: v1,
      GROQ_API_KEY: 'groq-key',
      GROQ_BASE_URL: v1,
      TOGETHER_API_KEY: 'together-key',
      TOGETHER_BASE_URL: v1,
      CEREBRAS_API_KEY: 'cerebras-key',
      CEREBRAS_BASE_URL: v1,
      SVC_BREAKER_CONSECUTIVE_FAILURES: '0',
      SVC_RETRY_MAX: '0',
    });
    client = new OpenAI({ baseURL: `${gateway.inferenceUrl}/v1`, apiKey: masterKey, maxRetries: 0 });
  });
  afterAll(async () => {
    await gateway?.stop();
    await upstream?.close();
  });
  beforeEach(() => upstream.configure({ fault: undefined, failFirst: undefined, faultKeys: undefined }));

  const decisionOf = async (response: Response) => {
    await gateway.runtime.learn.flush();
    return (await gateway.runtime.db.decisions.get(response.headers.get('x-svc-request-id')!))!;
  };

  it('falls through the key pool on a 402 (billing) within the same request', async () => {
    upstream.configure({ faultKeys: { 'openai-a': '402' } });
    for (let i = 0; i < 2; i++) {
      const { response } = await client.chat.completions.create({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }).withResponse();
      expect(response.status).toBe(200);
      expect(upstream.stats().lastRequest!.headers.authorization).toBe('Bearer openai-b');
    }
  });

  it('walks the tier pool of an alias when its first candidate answers 503', async () => {
    const probe = await client.chat.completions.create({ model: 'svc/auto-speed', messages: [{ role: 'user', content: 'hi' }] }).withResponse();
    const first = gateway.runtime.catalog.get(probe.response.headers.get('x-svc-model')!)!;
    const keyOf: Record<string, string> = { openai: 'openai-a', groq: 'groq-key', together: 'together-key', cerebras: 'cerebras-key' };
    const faults: Record<string, '503'> = { [keyOf[first.provider]!]: '503' };
    if (first.provider === 'openai') faults['openai-b'] = '503';
    upstream.configure({ faultKeys: faults });
    const { response } = await client.chat.completions.create({ model: 'svc/auto-speed', messages: [{ role: 'user', content: 'hi' }] }).withResponse();
    expect(response.status).toBe(200);
    const served = gateway.runtime.catalog.get(response.headers.get('x-svc-model')!)!;
    expect(served.provider).not.toBe(first.provider);
    expect(served.tier).toBe('T3');
    const decision = await decisionOf(response);
    expect((decision.attempts as { provider: string; outcome: string; upstreamStatus?: number }[]).filter((a) => a.outcome === 'error').every((a) => a.provider === first.provider && a.upstreamStatus === 503)).toBe(true);
  });

  it('returns a caller-fault 400 once, without trying another candidate', async () => {
    const llama = gateway.runtime.catalog.list({ provider: 'groq', kind: 'chat' }).find((m) => gateway.runtime.catalog.family(m.family).some((s) => s.provider === 'together'))!;
    upstream.configure({ fault: '400' });
    upstream.resetStats();
    const error = await client.chat.completions.create({ model: llama.id, messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(upstream.stats().total).toBe(1);
  });
});
