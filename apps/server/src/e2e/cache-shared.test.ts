import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { masterKey, startGateway } from './harness.js';

type Gateway = Awaited<ReturnType<typeof startGateway>>;
const shared = process.env.TEST_REDIS_URL && process.env.TEST_DATABASE_URL;

/** Issue 5: the exact cache's L1 lives in Redis, shared by every instance. */
describe.skipIf(!shared && process.env.CI !== 'true')('exact cache shared by two instances (Redis)', () => {
  let a: Gateway;
  let b: Gateway;

  beforeAll(async () => {
    const env = { DATABASE_URL: process.env.TEST_DATABASE_URL ?? '', REDIS_URL: process.env.TEST_REDIS_URL ?? '', SVC_MOCK_PROVIDER: '1', SVC_SEMANTIC_CACHE: '0' };
    [a, b] = await Promise.all([startGateway(env), startGateway(env)]);
  });
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
  });

  const ask = (gateway: Gateway, content: string, stream = false) =>
    fetch(`${gateway.inferenceUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${masterKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'mock/mock-value', messages: [{ role: 'user', content }], ...(stream ? { stream: true } : {}) }),
    });

  it('answers on one instance what the other stored, from L1, and a purge on one reaches both', async () => {
    const content = `shared cache ${Date.now()} ${Math.random()}`;
    const first = await ask(a, content);
    expect(first.headers.get('x-svc-cache-hit')).toBe('false');
    const stored = (await first.json()) as { choices: { message: { content: string } }[] };
    const other = await ask(b, content);
    expect(other.headers.get('x-svc-cache-hit')).toBe('true');
    const body = (await other.json()) as { choices: { message: { content: string } }[]; svc_metadata: { routing_decision: string } };
    expect(body.choices[0]!.message.content).toBe(stored.choices[0]!.message.content);
    expect(body.svc_metadata.routing_decision).toContain('exact l1');
    // The same entry replayed as a stream on the first instance (now from its L0).
    const streamed = await ask(a, content, true);
    expect(streamed.headers.get('x-svc-cache-hit')).toBe('true');
    expect(await streamed.text()).toContain('data: [DONE]');

    const purge = await fetch(`${b.controlUrl}/v1/observability/cache/purge`, { method: 'POST', headers: { authorization: `Bearer ${masterKey}` } });
    expect(purge.status).toBe(204);
    await expect.poll(async () => (await ask(a, content)).headers.get('x-svc-cache-hit')).toBe('false');
  }, 60_000);
});
