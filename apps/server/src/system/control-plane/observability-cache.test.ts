import { randomUUID } from 'node:crypto';
import { createInferenceApp } from '@svc/inference';
import { type Runtime, createRuntime } from '../../runtime/runtime.js';
import { parseEnv } from '../../runtime/env.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createControlPlaneApp } from '@svc/control-plane';

const master = 'sk-svc-cache-test-master-B0evFdkBnxeYWnlQIUBOg5js';
let runtime: Runtime;
let control: ReturnType<typeof createControlPlaneApp>;
let inference: ReturnType<typeof createInferenceApp>;

beforeAll(async () => {
  runtime = await createRuntime(parseEnv({ SVC_DATA_DIR: 'memory://', SVC_SENTENCE_ENCODER: 'hashed', SVC_MASTER_KEY: master, SVC_MOCK_PROVIDER: '1', LOG_LEVEL: 'silent' }));
  control = createControlPlaneApp({ ...runtime, maxBodyBytes: 64 * 1024 });
  inference = createInferenceApp({ ...runtime, maxBodyBytes: 64 * 1024 });
});
afterAll(async () => {
  await runtime?.close();
});

const headers = (key: string) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' });
const chat = (key: string, content = 'What is a cache line?') =>
  inference.request('/v1/chat/completions', { method: 'POST', headers: headers(key), body: JSON.stringify({ model: 'mock/mock-value', messages: [{ role: 'user', content }], temperature: 0 }) });
const purge = (key: string, query = '') => control.request(`/v1/observability/cache/purge${query}`, { method: 'POST', headers: headers(key) });
const stats = async () => (await (await control.request('/v1/observability/cache/stats', { headers: headers(master) })).json()) as { hits: { l0: number; semantic: number; total: number }; requests: number; hit_rate: number; entries: { l0: number } };

async function tenant() {
  const org = await runtime.db.orgs.ensure(`cache-${randomUUID()}`);
  const key = await runtime.authenticator.issue({ orgId: org.id, scopes: ['inference:chat', 'observability:read'] });
  return { org, key: key.secret };
}

describe('the exact cache through both apps', () => {
  it('serves the second identical request from cache, free; stats count it; an org never sees another org’s entry', async () => {
    const a = await tenant();
    const b = await tenant();
    const before = await stats();
    const first = await chat(a.key);
    expect(first.headers.get('x-svc-cache-hit')).toBe('false');
    const second = await chat(a.key);
    expect(second.headers.get('x-svc-cache-hit')).toBe('true');
    expect(second.headers.get('x-svc-cache-type')).toBe('exact');
    const body = (await second.json()) as { svc_metadata: { cost_usd: number; decision_source: string }; usage: { prompt_tokens_details?: { cached_tokens: number } } };
    expect(body.svc_metadata).toMatchObject({ cost_usd: 0, decision_source: 'CacheHit' });
    expect(body.usage.prompt_tokens_details?.cached_tokens).toBeGreaterThan(0);
    expect((await chat(b.key)).headers.get('x-svc-cache-hit')).toBe('false');
    const after = await stats();
    expect(after.hits.total - before.hits.total).toBe(1);
    expect(after.requests - before.requests).toBe(3);
    expect(after.entries.l0).toBeGreaterThanOrEqual(2);
  });

  it('purges one organisation (its own key may), everything (admin only), idempotently', async () => {
    const a = await tenant();
    const b = await tenant();
    await chat(a.key);
    await chat(b.key);
    expect((await purge(a.key, `?org_id=${a.org.id}`)).status).toBe(204);
    expect((await purge(a.key, `?org_id=${a.org.id}`)).status).toBe(204);
    expect((await chat(a.key)).headers.get('x-svc-cache-hit')).toBe('false');
    expect((await chat(b.key)).headers.get('x-svc-cache-hit')).toBe('true');
    const foreign = await purge(a.key, `?org_id=${b.org.id}`);
    expect(foreign.status).toBe(403);
    expect(await foreign.json()).toMatchObject({ error: { type: 'authorization_error', code: 'tenant_violation' } });
    expect(foreign.headers.get('x-error-id')).toBeTruthy();
    const everything = await purge(a.key);
    expect(everything.status).toBe(403);
    expect(await everything.json()).toMatchObject({ error: { code: 'forbidden' } });
    expect((await purge(master, `?org_id=${'x'.repeat(65)}`)).status).toBe(400);
    expect((await purge(master)).status).toBe(204);
    expect((await chat(b.key)).headers.get('x-svc-cache-hit')).toBe('false');
  });

  it('answers a rephrased question from the semantic cache, and misses the same question about another entity', async () => {
    const a = await tenant();
    const first = await chat(a.key, 'What is the capital city of France?');
    expect(first.headers.get('x-svc-cache-hit')).toBe('false');
    const rephrased = await chat(a.key, 'what is the capital city of France');
    expect(rephrased.headers.get('x-svc-cache-hit')).toBe('true');
    expect(rephrased.headers.get('x-svc-cache-type')).toBe('semantic');
    expect(Number(rephrased.headers.get('x-svc-semantic-similarity'))).toBeGreaterThan(0.9);
    expect(rephrased.headers.get('x-svc-request-id')).toMatch(/./);
    const other = await chat(a.key, 'What is the capital city of Spain?');
    expect(other.headers.get('x-svc-cache-hit')).toBe('false');
    const b = await tenant();
    expect((await chat(b.key, 'what is the capital city of France')).headers.get('x-svc-cache-hit')).toBe('false');
    expect((await stats()).hits.semantic).toBeGreaterThanOrEqual(1);
  });

  it('needs observability:read', async () => {
    const org = await runtime.db.orgs.ensure(`cache-ro-${randomUUID()}`);
    const chatOnly = await runtime.authenticator.issue({ orgId: org.id, scopes: ['inference:chat'] });
    expect((await control.request('/v1/observability/cache/stats', { headers: headers(chatOnly.secret) })).status).toBe(403);
    expect((await control.request('/v1/observability/cache/stats')).status).toBe(401);
  });
});
