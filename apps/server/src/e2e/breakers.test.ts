import { type MockUpstream, startMockUpstream } from '@svc/mock-upstream';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { masterKey, startGateway } from './harness.js';

type Gateway = Awaited<ReturnType<typeof startGateway>>;
const shared = process.env.TEST_REDIS_URL && process.env.TEST_DATABASE_URL;

/** Issue 3: breaker state shared by two gateway instances over Redis. */
describe.skipIf(!shared && process.env.CI !== 'true')('circuit breakers across two instances (Redis)', () => {
  let upstream: MockUpstream;
  let a: Gateway;
  let b: Gateway;
  const model = 'openai/gpt-4o-mini';

  beforeAll(async () => {
    upstream = await startMockUpstream({ tokens: 4 });
    const env = { OPENAI_API_KEY: 'sk-one', OPENAI_BASE_URL: `${upstream.url}/v1`, DATABASE_URL: process.env.TEST_DATABASE_URL ?? '', REDIS_URL: process.env.TEST_REDIS_URL ?? '' };
    [a, b] = await Promise.all([startGateway(env), startGateway(env)]);
    await a.runtime.breakers.reset(model);
  });
  afterAll(async () => {
    await a?.runtime.breakers.reset(model);
    await Promise.all([a?.stop(), b?.stop()]);
    await upstream?.close();
  });

  it('opens on one instance, is skipped by the other (503 without an upstream call), and resets from the control plane', async () => {
    const clientA = new OpenAI({ baseURL: `${a.inferenceUrl}/v1`, apiKey: masterKey, maxRetries: 0 });
    const clientB = new OpenAI({ baseURL: `${b.inferenceUrl}/v1`, apiKey: masterKey, maxRetries: 0 });
    const ask = { model, messages: [{ role: 'user' as const, content: 'hi' }] };
    upstream.configure({ fault: '503' });
    const codeOnA = () => clientA.chat.completions.create(ask).then(() => 'ok', (error: { code?: string }) => error.code);
    expect(await codeOnA()).toBe('provider_error'); // 502 while the breaker is still closed
    // Each request fails its attempt and its retry; a few requests open the breaker.
    await expect.poll(codeOnA, { timeout: 5_000, interval: 10 }).toBe('circuit_breaker_open');

    upstream.resetStats();
    const codeOf = () => clientB.chat.completions.create(ask).then(() => 'ok', (error: { code?: string }) => error.code);
    await expect.poll(codeOf, { timeout: 2_000 }).toBe('circuit_breaker_open');
    expect(upstream.stats().total).toBe(0);

    const list = (await (await fetch(`${b.controlUrl}/v1/observability/breakers`, { headers: { authorization: `Bearer ${masterKey}` } })).json()) as { key: string; state: string }[];
    expect(list.find((x) => x.key === model)?.state).toBe('open');

    upstream.configure({ fault: undefined });
    const reset = await fetch(`${b.controlUrl}/v1/observability/breakers/reset`, {
      method: 'POST',
      headers: { authorization: `Bearer ${masterKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ key: model }),
    });
    expect(reset.status).toBe(204);
    await expect.poll(async () => (await clientA.chat.completions.create(ask).then(() => 'ok', () => 'failed')), { timeout: 2_000 }).toBe('ok');
  }, 30_000);
});
