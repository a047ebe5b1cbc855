import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { masterKey } from '../harness.js';
import { type Gateway, call, expectThrottled, newOrg, passkeyUser, startSecureGateway } from './security-kit.js';

// Issue #36 findings 1 and 3: 43 wrong API keys, 200 login/begin, 50 bad login/complete and 30
// guessed enrollment tokens all answered without a 429.

let gateway: Gateway;
beforeAll(async () => {
  gateway = await startSecureGateway();
});
afterAll(async () => {
  await gateway?.stop();
});

const chat = (key: string, address: string) =>
  fetch(`${gateway.inferenceUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'x-forwarded-for': address },
    body: JSON.stringify({ model: 'mock/mock-value', messages: [{ role: 'user', content: 'hi' }] }),
  });

async function answer(response: Response) {
  return { status: response.status, headers: response.headers, json: (await response.json()) as Record<string, never> };
}

describe('wrong API keys', () => {
  it('a source guessing keys gets 429 with retry-after, its right key too while blocked; another source is not held back', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await chat(`sk-svc-guess${i}${'x'.repeat(40)}`, '198.51.100.10')).status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses.slice(10)).toEqual([429, 429]);
    expectThrottled(await answer(await chat(masterKey, '198.51.100.10')), 'the right key from the blocked source');
    // The official SDK sees a RateLimitError (it retries 429s, so without retries here).
    const client = new OpenAI({ baseURL: `${gateway.inferenceUrl}/v1`, apiKey: 'sk-svc-wrong', maxRetries: 0, defaultHeaders: { 'x-forwarded-for': '198.51.100.10' } });
    await expect(client.models.list()).rejects.toBeInstanceOf(OpenAI.RateLimitError);
    expect((await chat(masterKey, '198.51.100.11')).status).toBe(200);
  });

  it('guessing the end of a key from many sources is stopped by the per-prefix limit', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 22; i++) statuses.push((await chat(`Sup3rS3cretKey${String(i).padStart(2, '0')}`, `203.0.113.${i + 1}`)).status);
    expect(statuses.slice(0, 20)).toEqual(Array(20).fill(401));
    expect(statuses.slice(20)).toEqual([429, 429]);
  });

  it('the control plane throttles its Bearer keys the same way', async () => {
    for (let i = 0; i < 10; i++) expect((await call(gateway, 'GET', '/v1/admin/orgs', { bearer: `wrong-admin-key-${i}`, address: '198.51.100.20' })).status).toBe(401);
    expectThrottled(await call(gateway, 'GET', '/v1/admin/orgs', { bearer: 'wrong-admin-key-10', address: '198.51.100.20' }), 'the 11th wrong key');
    expectThrottled(await call(gateway, 'GET', '/v1/admin/orgs', { bearer: masterKey, address: '198.51.100.20' }), 'admin API from a blocked source');
  });
});

describe('dashboard sign-in', () => {
  it('login/begin: 20 a minute from one address (each stores a challenge), 20 for one e-mail', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) statuses.push((await call(gateway, 'POST', '/v1/auth/login/begin', { address: '198.51.100.30', body: { email: `someone${i}@example.com` } })).status);
    expect(statuses.slice(0, 20)).toEqual(Array(20).fill(200));
    expectThrottled(await call(gateway, 'POST', '/v1/auth/login/begin', { address: '198.51.100.30', body: { email: 'next@example.com' } }), 'begin from one address');
    for (let i = 0; i < 20; i++) expect((await call(gateway, 'POST', '/v1/auth/login/begin', { address: `192.0.2.${i + 1}`, body: { email: 'target@example.com' } })).status).toBe(200);
    expectThrottled(await call(gateway, 'POST', '/v1/auth/login/begin', { address: '192.0.2.99', body: { email: 'target@example.com' } }), 'begin for one e-mail');
  });

  it('login/complete: repeated failed assertions end in 429', async () => {
    const org = await newOrg(gateway, 'throttle-login');
    const user = await passkeyUser(gateway, org);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const begin = await call(gateway, 'POST', '/v1/auth/login/begin', { address: `198.51.100.${41 + i}`, body: { email: user.email } });
      // Signed for another site: refused, and counted against the credential.
      const forged = user.device.authenticate(begin.json.public_key, { origin: 'https://evil.example.com' });
      statuses.push((await call(gateway, 'POST', '/v1/auth/login/complete', { address: `198.51.100.${41 + i}`, body: { response: forged } })).status);
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses[10]).toBe(429);
    // The owner is held back too while the credential is blocked (the guesser cannot tell a right answer).
    const begin = await call(gateway, 'POST', '/v1/auth/login/begin', { address: '198.51.100.99', body: { email: user.email } });
    expectThrottled(await call(gateway, 'POST', '/v1/auth/login/complete', { address: '198.51.100.99', body: { response: user.device.authenticate(begin.json.public_key) } }), 'the blocked credential');
  });

  it('enrollment links: guessed tokens end in 429', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await call(gateway, 'POST', '/v1/auth/enroll', { address: '198.51.100.50', body: { token: `guess-${i}-${'A'.repeat(36)}` } })).status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expectThrottled(await call(gateway, 'POST', '/v1/auth/enroll', { address: '198.51.100.50', body: { token: 'another-guess' } }), 'enrollment');
  });
});

describe.runIf(process.env.TEST_REDIS_URL)('across instances sharing Redis', () => {
  it('wrong keys sent to two gateways count together', async () => {
    const redis = { REDIS_URL: process.env.TEST_REDIS_URL! };
    const other = await startSecureGateway(redis);
    const first = await startSecureGateway(redis);
    try {
      const send = (target: Gateway, i: number) =>
        fetch(`${target.inferenceUrl}/v1/models`, { headers: { authorization: `Bearer sk-svc-fleet${i}${'y'.repeat(40)}`, 'x-forwarded-for': `198.18.${process.pid % 250}.7` } });
      const statuses: number[] = [];
      for (let i = 0; i < 10; i++) statuses.push((await send(i % 2 ? other : first, i)).status);
      expect(statuses).toEqual(Array(10).fill(401));
      expect((await send(other, 10)).status).toBe(429);
      expect((await send(first, 11)).status).toBe(429);
    } finally {
      await other.stop();
      await first.stop();
    }
  });
});
