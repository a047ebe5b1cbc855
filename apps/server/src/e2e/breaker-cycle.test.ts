import { type MockUpstream, startMockUpstream } from '@svc/mock-upstream';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { masterKey, startGateway } from './harness.js';

type Gateway = Awaited<ReturnType<typeof startGateway>>;

describe('a circuit breaker through its whole cycle', () => {
  let upstream: MockUpstream;
  let gateway: Gateway;

  beforeAll(async () => {
    upstream = await startMockUpstream({ tokens: 4 });
    gateway = await startGateway({
      OPENAI_API_KEY: 'sk-one',
      OPENAI_BASE_URL: `${upstream.url}/v1`,
      SVC_BREAKER_CONSECUTIVE_FAILURES: '2',
      SVC_BREAKER_COOLDOWN_MS: '300',
      SVC_RETRY_MAX: '0',
    });
  });
  afterAll(async () => {
    await gateway?.stop();
    await upstream?.close();
  });

  it('opens after failures, skips without calling upstream, half-opens after the cooldown and closes on a good probe', async () => {
    const client = new OpenAI({ baseURL: `${gateway.inferenceUrl}/v1`, apiKey: masterKey, maxRetries: 0 });
    const model = 'openai/gpt-4o-mini';
    const code = () => client.chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] }).then(() => 'ok', (error: { code?: string }) => error.code);
    upstream.configure({ fault: '503' });
    expect(await code()).toBe('provider_error');
    expect(await code()).toBe('provider_error');
    expect((await gateway.runtime.breakers.status(model)).state).toBe('open');

    upstream.resetStats();
    expect(await code()).toBe('circuit_breaker_open');
    expect(upstream.stats().total).toBe(0);

    upstream.configure({ fault: undefined });
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect((await gateway.runtime.breakers.status(model)).state).toBe('half_open');
    expect(await code()).toBe('ok'); // the probe
    expect(upstream.stats().total).toBe(1);
    expect((await gateway.runtime.breakers.status(model)).state).toBe('closed');
    expect(await code()).toBe('ok');
  });
});
