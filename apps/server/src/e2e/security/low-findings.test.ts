import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { masterKey, startGateway } from '../harness.js';
import { type Gateway, call, newOrg, passkeyUser, signIn, startSecureGateway } from './security-kit.js';

// Issue #36 finding 5 (low): each of these answered otherwise on main.

const providerKey = 'sk-proj-Abc123XyZ789echoedbytheupstream0000';

/** An upstream that refuses every call quoting the key truncated and masked, as OpenAI does. */
let upstream: Server;
let gateway: Gateway;
beforeAll(async () => {
  upstream = createServer((request, response) => {
    request.resume();
    const sent = String(request.headers.authorization ?? '').replace(/^Bearer /, '');
    response.writeHead(401, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ error: { message: `Incorrect API key provided: ${sent.slice(0, 12)}****${sent.slice(-4)}.`, type: 'invalid_request_error', code: 'invalid_api_key' } }));
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  gateway = await startSecureGateway({ OPENAI_API_KEY: providerKey, OPENAI_BASE_URL: `${base}/v1`, SVC_MOCK_PROVIDER: '1', SVC_CACHE_TTL_SECS: '0', SVC_LEARN_FLUSH_MS: '100' });
});
afterAll(async () => {
  await gateway?.stop();
  await new Promise<void>((resolve) => upstream.close(() => resolve()));
});

const tenantKey = async (orgId: string, scopes: string[]) => (await call(gateway, 'POST', '/v1/admin/keys', { bearer: masterKey, body: { org_id: orgId, scopes } })).json.key as string;

describe('low findings', () => {
  it('a provider key the upstream quotes truncated never reaches the tenant', async () => {
    const key = await tenantKey(await newOrg(gateway, 'scrub'), ['inference:chat']);
    const response = await fetch(`${gateway.inferenceUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }),
    });
    const text = await response.text();
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(text).not.toContain(providerKey.slice(0, 12));
    expect(text).toContain('[redacted]');
  });

  it("/v1/observability/cache/stats: instance-wide counters for admins only, not an organisation's key", async () => {
    const key = await tenantKey(await newOrg(gateway, 'stats'), ['observability:read']);
    const refused = await call(gateway, 'GET', '/v1/observability/cache/stats', { bearer: key });
    expect(refused.status).toBe(403);
    expect(refused.json.error).toMatchObject({ type: 'authorization_error', code: 'forbidden' });
    expect((await call(gateway, 'GET', '/v1/observability/cache/stats', { bearer: masterKey })).json).toMatchObject({ object: 'cache_stats' });
  });

  it('/metrics through a reverse proxy on the same host is not a loopback caller', async () => {
    for (const url of [gateway.inferenceUrl, gateway.controlUrl]) {
      expect((await fetch(`${url}/metrics`)).status).toBe(200);
      expect((await fetch(`${url}/metrics`, { headers: { 'x-forwarded-for': '203.0.113.9' } })).status).toBe(403);
      expect((await fetch(`${url}/metrics`, { headers: { forwarded: 'for=203.0.113.9' } })).status).toBe(403);
    }
  });

  it('admin lists honour limit and page with after', async () => {
    const orgId = await newOrg(gateway, 'pages');
    for (let i = 0; i < 3; i++) await tenantKey(orgId, ['inference:chat']);
    const first = await call(gateway, 'GET', `/v1/admin/keys?org_id=${orgId}&limit=2`, { bearer: masterKey });
    expect(first.json).toMatchObject({ object: 'list', has_more: true });
    expect(first.json.data).toHaveLength(2);
    const second = await call(gateway, 'GET', `/v1/admin/keys?org_id=${orgId}&limit=2&after=${first.json.last_id}`, { bearer: masterKey });
    expect(second.json).toMatchObject({ object: 'list', has_more: false });
    expect(second.json.data).toHaveLength(1);
    for (const path of ['/v1/admin/orgs?limit=1', '/v1/admin/users?limit=1']) {
      expect((await call(gateway, 'GET', path, { bearer: masterKey })).json.data.length, path).toBeLessThanOrEqual(1);
    }
    expect((await call(gateway, 'GET', '/v1/admin/orgs?limit=0', { bearer: masterKey })).json.error).toMatchObject({ param: 'limit' });
    expect((await call(gateway, 'GET', '/v1/admin/orgs?limit=1001', { bearer: masterKey })).status).toBe(400);
  });

  it("/dashboard/requests/:id answers another organisation's request exactly as an unknown one", async () => {
    const mine = await newOrg(gateway, 'mine');
    const theirs = await newOrg(gateway, 'theirs');
    const chat = await fetch(`${gateway.inferenceUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await tenantKey(theirs, ['inference:chat'])}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'mock/mock-value', messages: [{ role: 'user', content: 'hi' }] }),
    });
    const requestId = chat.headers.get('x-svc-request-id')!;
    await chat.text();
    const member = await signIn(gateway, await passkeyUser(gateway, mine));
    const page = (id: string) => fetch(`${gateway.controlUrl}/dashboard/requests/${id}`, { headers: { cookie: member.cookie! } });
    // The decision is written by the learn stage, off the request path.
    const admin = await signIn(gateway, await passkeyUser(gateway, theirs, 'admin'));
    await expect.poll(async () => (await fetch(`${gateway.controlUrl}/dashboard/requests/${requestId}`, { headers: { cookie: admin.cookie! } })).status, { timeout: 10_000 }).toBe(200);
    const foreign = await page(requestId);
    const unknown = await page('req_unknown0000000000000000');
    expect(foreign.status).toBe(404);
    expect(unknown.status).toBe(404);
    const body = async (response: Response, id: string) => (await response.text()).replaceAll(id, 'ID');
    expect(await body(foreign, requestId)).toBe(await body(unknown, 'req_unknown0000000000000000'));
  });
});

describe('the default gateway', () => {
  it('without trusted proxies a forwarding header cannot pick the address throttled', async () => {
    const plain = await startGateway();
    try {
      const send = (i: number) => fetch(`${plain.inferenceUrl}/v1/models`, { headers: { authorization: `Bearer sk-svc-spoof${i}${'z'.repeat(40)}`, 'x-forwarded-for': `198.51.100.${i}` } });
      const statuses: number[] = [];
      for (let i = 0; i < 11; i++) statuses.push((await send(i)).status);
      // Every guess counts against the real peer (loopback), whatever address it claims.
      expect(statuses.at(-1)).toBe(429);
    } finally {
      await plain.stop();
    }
  });
});
