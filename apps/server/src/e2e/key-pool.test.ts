import { type MockUpstream, startMockUpstream } from '@svc/mock-upstream';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { masterKey, startGateway } from './harness.js';

type Gateway = Awaited<ReturnType<typeof startGateway>>;

describe('provider key pools', () => {
  let upstream: MockUpstream;
  let gateway: Gateway;
  let client: OpenAI;

  beforeAll(async () => {
    upstream = await startMockUpstream({ tokens: 8 });
    gateway = await startGateway({
      // Identical requests must reach the upstream: no answer cache here.
      SVC_CACHE_TTL_SECS: '0', OPENAI_API_KEY: 'sk-pool-a, sk-pool-b', OPENAI_BASE_URL: `${upstream.url}/v1` });
    client = new OpenAI({ baseURL: `${gateway.inferenceUrl}/v1`, apiKey: masterKey, maxRetries: 0 });
  });
  afterAll(async () => {
    await gateway?.stop();
    await upstream?.close();
  });

  it('uses the keys round-robin', async () => {
    const used: unknown[] = [];
    for (let i = 0; i < 4; i++) {
      await client.chat.completions.create({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });
      used.push(upstream.stats().lastRequest!.headers.authorization);
    }
    expect(new Set(used)).toEqual(new Set(['Bearer sk-pool-a', 'Bearer sk-pool-b']));
    expect(used[0]).not.toBe(used[1]);
  });

  it('falls through to the next key on a 429 within the same request, and logs both keys', async () => {
    upstream.configure({ fault: '429', failFirst: 1 });
    upstream.resetStats();
    for (const stream of [false, true]) {
      upstream.configure({ fault: '429', failFirst: 1 });
      const { data, response } = await client.chat.completions
        .create({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], stream })
        .withResponse();
      if (stream) for await (const _ of data as AsyncIterable<unknown>) {
        // drain
      }
      expect(response.status).toBe(200);
      await gateway.runtime.learn.flush();
      const decision = await gateway.runtime.db.decisions.get(response.headers.get('x-svc-request-id')!);
      const attempts = decision!.attempts as { keyIndex: number; outcome: string; errorKind?: string; upstreamStatus?: number }[];
      expect(attempts).toHaveLength(2);
      expect(attempts[0]).toMatchObject({ outcome: 'error', errorKind: 'rate_limit', upstreamStatus: 429 });
      expect(attempts[1]).toMatchObject({ outcome: 'ok' });
      expect(new Set(attempts.map((a) => a.keyIndex))).toEqual(new Set([0, 1]));
    }
  });
});
