import { randomUUID } from 'node:crypto';
import { createInferenceApp } from '@svc/inference';
import { endUserSubject } from '@svc/memory';
import { type Runtime, createRuntime } from '../../runtime/runtime.js';
import { parseEnv } from '../../runtime/env.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createControlPlaneApp } from '@svc/control-plane';

const master = 'sk-svc-control-plane-test-master-zkwSRpbXadyByNcKht18fkDY';
let runtime: Runtime;
let control: ReturnType<typeof createControlPlaneApp>;
let inference: ReturnType<typeof createInferenceApp>;

beforeAll(async () => {
  runtime = await createRuntime(parseEnv({ SVC_DATA_DIR: 'memory://', SVC_SENTENCE_ENCODER: 'hashed', SVC_MASTER_KEY: master, SVC_MOCK_PROVIDER: '1', LOG_LEVEL: 'silent' }));
  control = createControlPlaneApp({ ...runtime, maxBodyBytes: 1024 * 1024 });
  inference = createInferenceApp({ ...runtime, maxBodyBytes: 1024 * 1024 });
});
afterAll(async () => {
  await runtime?.close();
});

const admin = (method: string, path: string, body?: unknown, key = master) =>
  control.request(path, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
const chatWith = (key: string, content = 'hi') =>
  inference.request('/v1/chat/completions', {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'svc/auto', messages: [{ role: 'user', content }] }),
  });
const json = async <T = Record<string, unknown>>(response: Response) => (await response.json()) as T;

describe('admin API authorisation', () => {
  it('needs a key (401) with the admin role (403)', async () => {
    expect((await control.request('/v1/admin/orgs')).status).toBe(401);
    const org = await runtime.db.orgs.ensure(`plain-${randomUUID()}`);
    const plain = await runtime.authenticator.issue({ orgId: org.id, scopes: ['inference:chat', 'observability:read'] });
    const denied = await admin('GET', '/v1/admin/orgs', undefined, plain.secret);
    expect(denied.status).toBe(403);
    expect(await json(denied)).toMatchObject({ error: { type: 'authorization_error', code: 'forbidden' } });
  });

  it('keeps probes public on the control plane', async () => {
    expect((await control.request('/health')).status).toBe(200);
    expect((await control.request('/ready')).status).toBe(200);
    expect((await control.request('/metrics')).status).toBe(200);
  });
});

describe('organisations', () => {
  it('creates, lists and patches organisations', async () => {
    const name = `acme-${randomUUID()}`;
    const created = await admin('POST', '/v1/admin/orgs', { name, rpm_limit: 600, monthly_budget_usd: 25.5, default_intelligence_mode: 'cache' });
    expect(created.status).toBe(201);
    const org = await json(created);
    expect(org).toMatchObject({ name, plan: 'free', rpm_limit: 600, tpm_limit: null, monthly_budget_usd: 25.5, default_intelligence_mode: 'cache' });
    const list = await json<{ object: string; data: { id: string }[] }>(await admin('GET', '/v1/admin/orgs'));
    expect(list.object).toBe('list');
    expect(list.data.map((o) => o.id)).toContain(org.id);
    const patched = await admin('PATCH', `/v1/admin/orgs/${org.id}`, { tpm_limit: 90000, rpm_limit: null });
    expect(await json(patched)).toMatchObject({ tpm_limit: 90000, rpm_limit: null, monthly_budget_usd: 25.5 });
  });

  it('validates bodies (400 with param), refuses duplicates (409) and unknown ids (404)', async () => {
    expect(await json(await admin('POST', '/v1/admin/orgs', {}))).toMatchObject({ error: { type: 'invalid_request_error', param: 'name' } });
    expect(await json(await admin('POST', '/v1/admin/orgs', { name: 'x', rpm_limit: -1 }))).toMatchObject({ error: { param: 'rpm_limit' } });
    expect(await json(await admin('POST', '/v1/admin/orgs', { name: 'x', default_intelligence_mode: 'turbo' }))).toMatchObject({ error: { param: 'default_intelligence_mode' } });
    const name = `dup-${randomUUID()}`;
    expect((await admin('POST', '/v1/admin/orgs', { name })).status).toBe(201);
    const duplicate = await admin('POST', '/v1/admin/orgs', { name });
    expect(duplicate.status).toBe(409);
    expect((await admin('PATCH', `/v1/admin/orgs/${randomUUID()}`, { plan: 'pro' })).status).toBe(404);
  });

  it('restricts an organisation to free or open-weight models (free_models_only), at once', async () => {
    const org = await json<{ id: string; free_models_only: boolean }>(await admin('POST', '/v1/admin/orgs', { name: `free-${randomUUID()}` }));
    expect(org.free_models_only).toBe(false);
    const key = await json<{ key: string }>(await admin('POST', '/v1/admin/keys', { org_id: org.id }));
    expect((await chatWith(key.key)).status).toBe(200);
    const patched = await json(await admin('PATCH', `/v1/admin/orgs/${org.id}`, { free_models_only: true }));
    expect(patched).toMatchObject({ free_models_only: true });
    // The mock catalog has no free model: an explicit paid model is a policy denial, an alias finds nothing eligible.
    const explicit = await inference.request('/v1/chat/completions', {
      method: 'POST',
      headers: { authorization: `Bearer ${key.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'mock/mock-speed', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(explicit.status).toBe(403);
    expect(await json(explicit)).toMatchObject({ error: { type: 'authorization_error', code: 'forbidden' } });
    expect(await json(await chatWith(key.key))).toMatchObject({ error: { code: 'no_eligible_model' } });
    expect(await json(await admin('PATCH', `/v1/admin/orgs/${org.id}`, { free_models_only: 'yes' }))).toMatchObject({ error: { param: 'free_models_only' } });
  });

  it('makes the org default intelligence mode the fallback of every request', async () => {
    const org = await json<{ id: string }>(await admin('POST', '/v1/admin/orgs', { name: `mode-${randomUUID()}`, default_intelligence_mode: 'proxy' }));
    const key = await json<{ key: string }>(await admin('POST', '/v1/admin/keys', { org_id: org.id }));
    expect((await chatWith(key.key)).headers.get('x-svc-intelligence-mode')).toBe('proxy');
  });
});

describe('spend', () => {
  it('shows the month\'s settled spend and tokens against the budget, patched limits applying at once', async () => {
    const created = (await (await admin('POST', '/v1/admin/orgs', { name: `spend-${randomUUID()}`, monthly_budget_usd: 5, token_quota: 1_000_000 })).json()) as { id: string };
    const key = (await (await admin('POST', '/v1/admin/keys', { org_id: created.id })).json()) as { key: string };
    expect((await chatWith(key.key)).status).toBe(200);
    await runtime.learn.flush();
    await expect
      .poll(async () => (await (await admin('GET', `/v1/admin/orgs/${created.id}/spend`)).json()) as Record<string, unknown>)
      .toMatchObject({ object: 'org_spend', org_id: created.id, monthly_budget_usd: 5, token_quota: 1_000_000, reserved_usd: 0, reserved_tokens: 0 });
    const spend = (await (await admin('GET', `/v1/admin/orgs/${created.id}/spend`)).json()) as { spent_usd: number; tokens: number; month: string };
    expect(spend.spent_usd).toBeGreaterThan(0);
    expect(spend.tokens).toBeGreaterThan(0);
    expect(spend.month).toMatch(/^\d{4}-\d{2}$/);
    expect((await admin('GET', `/v1/admin/orgs/${created.id}/spend?month=2026-13`)).status).toBe(400);
    expect((await admin('GET', `/v1/admin/orgs/${randomUUID()}/spend`)).status).toBe(404);
    await admin('PATCH', `/v1/admin/orgs/${created.id}`, { monthly_budget_usd: 0.0000001 });
    expect((await chatWith(key.key)).status).toBe(402);
  });
});

describe('keys', () => {
  it('issues a key shown once, usable at once, listed without its secret, revoked at once', async () => {
    const org = await json<{ id: string }>(await admin('POST', '/v1/admin/orgs', { name: `keys-${randomUUID()}` }));
    const created = await admin('POST', '/v1/admin/keys', { org_id: org.id, name: 'ci' });
    expect(created.status).toBe(201);
    const key = await json<{ id: string; key: string; scopes: string[]; org_id: string; expires_at: null; created_at: string }>(created);
    expect(key.key).toMatch(/^sk-svc-/);
    expect(key.scopes).not.toContain('admin');
    expect(key.scopes).toContain('inference:chat');
    expect((await chatWith(key.key)).status).toBe(200);

    const listed = await json<{ data: Record<string, unknown>[] }>(await admin('GET', `/v1/admin/keys?org_id=${org.id}`));
    expect(listed.data).toHaveLength(1);
    expect(listed.data[0]).toMatchObject({ id: key.id, status: 'active', prefix: key.key.slice(0, 15), kind: 'standard' });
    expect(JSON.stringify(listed)).not.toContain(key.key);

    const revoked = await admin('DELETE', `/v1/admin/keys/${key.id}`);
    expect(await json(revoked)).toEqual({ id: key.id, status: 'revoked' });
    expect(await json(await chatWith(key.key))).toMatchObject({ error: { code: 'revoked_api_key' } });
    expect((await admin('DELETE', '/v1/admin/keys/key_missing')).status).toBe(404);
  });

  it('refuses to revoke the master key (409, it is rotated through SVC_MASTER_KEY)', async () => {
    const caller = await runtime.authenticator.authenticate(master);
    const refused = await admin('DELETE', `/v1/admin/keys/${caller.keyId}`);
    expect(refused.status).toBe(409);
    expect(await json(refused)).toMatchObject({ error: { code: 'master_key_protected', param: 'id' } });
    expect((await admin('GET', '/v1/admin/orgs')).status).toBe(200);
  });

  it('validates scopes, org and expiry', async () => {
    const org = await json<{ id: string }>(await admin('POST', '/v1/admin/orgs', { name: `kv-${randomUUID()}` }));
    expect(await json(await admin('POST', '/v1/admin/keys', { org_id: org.id, scopes: ['inference:chat', 'root'] }))).toMatchObject({ error: { param: 'scopes' } });
    expect((await admin('POST', '/v1/admin/keys', { org_id: randomUUID() })).status).toBe(404);
    expect(await json(await admin('POST', '/v1/admin/keys', { org_id: org.id, expires_at: '2001-01-01T00:00:00Z' }))).toMatchObject({ error: { param: 'expires_at' } });
    expect(await json(await admin('POST', '/v1/admin/keys', { org_id: org.id, expires_at: 'tomorrow' }))).toMatchObject({ error: { param: 'expires_at' } });
    const scoped = await json<{ scopes: string[]; expires_at: string }>(
      await admin('POST', '/v1/admin/keys', { org_id: org.id, scopes: ['inference:embeddings'], expires_at: '2099-01-01T00:00:00Z' }),
    );
    expect(scoped).toMatchObject({ scopes: ['inference:embeddings'], expires_at: '2099-01-01T00:00:00.000Z' });
  });
});

describe('per-key limits', () => {
  it('holds a key to its own RPM on top of its organisation, leaving the org\'s other keys alone', async () => {
    const org = await json<{ id: string }>(await admin('POST', '/v1/admin/orgs', { name: `kl-${randomUUID()}`, rpm_limit: 100 }));
    const limited = await admin('POST', '/v1/admin/keys', { org_id: org.id, name: 'batch', rpm_limit: 2, tpm_limit: 50_000 });
    expect(limited.status).toBe(201);
    const batch = await json<{ id: string; key: string }>(limited);
    expect(batch).toMatchObject({ rpm_limit: 2, tpm_limit: 50_000 });
    const other = await json<{ key: string; rpm_limit: null; tpm_limit: null }>(await admin('POST', '/v1/admin/keys', { org_id: org.id }));
    expect(other).toMatchObject({ rpm_limit: null, tpm_limit: null });

    expect((await chatWith(batch.key)).status).toBe(200);
    expect((await chatWith(batch.key)).status).toBe(200);
    const refused = await chatWith(batch.key);
    expect(refused.status).toBe(429);
    expect(await json(refused)).toMatchObject({ error: { type: 'rate_limit_error', code: 'rate_limit_exceeded' } });
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    // The organisation's 100 RPM still has room: its other key is served.
    expect((await chatWith(other.key)).status).toBe(200);

    const listed = await json<{ data: Record<string, unknown>[] }>(await admin('GET', `/v1/admin/keys?org_id=${org.id}`));
    expect(listed.data.find((k) => k.id === batch.id)).toMatchObject({ rpm_limit: 2, tpm_limit: 50_000 });
  });

  it('changes a key\'s limits at once (PATCH), null clearing one; an unknown key is 404', async () => {
    const org = await json<{ id: string }>(await admin('POST', '/v1/admin/orgs', { name: `kp-${randomUUID()}` }));
    const key = await json<{ id: string; key: string }>(await admin('POST', '/v1/admin/keys', { org_id: org.id }));
    expect((await chatWith(key.key)).status).toBe(200); // the key is now in the auth cache
    const patched = await admin('PATCH', `/v1/admin/keys/${key.id}`, { rpm_limit: 1, name: 'throttled' });
    expect(patched.status).toBe(200);
    expect(await json(patched)).toMatchObject({ id: key.id, object: 'api_key', name: 'throttled', rpm_limit: 1, tpm_limit: null });
    expect((await chatWith(key.key)).status).toBe(200);
    expect((await chatWith(key.key)).status).toBe(429);
    expect(await json(await admin('PATCH', `/v1/admin/keys/${key.id}`, { rpm_limit: null }))).toMatchObject({ rpm_limit: null, name: 'throttled' });
    expect((await chatWith(key.key)).status).toBe(200);
    expect((await admin('PATCH', '/v1/admin/keys/key_missing', { rpm_limit: 5 })).status).toBe(404);
    expect(await json(await admin('PATCH', `/v1/admin/keys/${key.id}`, { tpm_limit: -5 }))).toMatchObject({ error: { param: 'tpm_limit' } });
  });

  it('holds a key to its own monthly budget: 402 once spent, the org\'s other key served', async () => {
    const org = await json<{ id: string }>(await admin('POST', '/v1/admin/orgs', { name: `kb-${randomUUID()}` }));
    const created = await admin('POST', '/v1/admin/keys', { org_id: org.id, monthly_budget_usd: 0.0000001 });
    const capped = await json<{ id: string; key: string; monthly_budget_usd: number }>(created);
    expect(capped.monthly_budget_usd).toBe(0.0000001);
    const refused = await chatWith(capped.key);
    expect(refused.status).toBe(402);
    expect(await json(refused)).toMatchObject({ error: { type: 'billing_error', code: 'budget_exceeded' } });
    const other = await json<{ key: string }>(await admin('POST', '/v1/admin/keys', { org_id: org.id }));
    expect((await chatWith(other.key)).status).toBe(200);
    // Raised, it serves at once; negative budgets are refused.
    expect(await json(await admin('PATCH', `/v1/admin/keys/${capped.id}`, { monthly_budget_usd: 50 }))).toMatchObject({ monthly_budget_usd: 50 });
    // Another question than the other key's: a cache hit would cost nothing.
    expect((await chatWith(capped.key, 'What is the capital of Peru?')).status).toBe(200);
    expect(await json(await admin('PATCH', `/v1/admin/keys/${capped.id}`, { monthly_budget_usd: -1 }))).toMatchObject({ error: { param: 'monthly_budget_usd' } });
    // The key's month: what it spent (this request), against its budget; the ledger agrees once flushed.
    const keySpend = async () => json<Record<string, unknown>>(await admin('GET', `/v1/admin/keys/${capped.id}/spend`));
    await expect.poll(async () => (await keySpend()).spent_usd).toBeGreaterThan(0); // settled just after the answer
    const spend = await keySpend();
    expect(spend).toMatchObject({ object: 'api_key_spend', key_id: capped.id, org_id: org.id, monthly_budget_usd: 50, reserved_usd: 0 });
    expect(spend.month).toMatch(/^\d{4}-\d{2}$/);
    expect((await admin('GET', `/v1/admin/keys/${capped.id}/spend?month=2026-13`)).status).toBe(400);
    expect((await admin('GET', '/v1/admin/keys/key_missing/spend')).status).toBe(404);
  });

  it('refuses limits that are not whole numbers >= 0', async () => {
    const org = await json<{ id: string }>(await admin('POST', '/v1/admin/orgs', { name: `klv-${randomUUID()}` }));
    for (const body of [{ rpm_limit: -1 }, { rpm_limit: 1.5 }, { tpm_limit: 'many' }, { tpm_limit: 3_000_000_000 }]) {
      const answer = await admin('POST', '/v1/admin/keys', { org_id: org.id, ...body });
      expect(answer.status).toBe(400);
      expect(await json(answer)).toMatchObject({ error: { type: 'invalid_request_error', param: Object.keys(body)[0] } });
    }
  });
});

const sharedStores = process.env.TEST_REDIS_URL && process.env.TEST_DATABASE_URL;
describe.skipIf(!sharedStores && process.env.CI !== 'true')('revocation across instances (PostgreSQL + Redis)', () => {
  it('is honoured by another instance within a second', async () => {
    const env = parseEnv({ DATABASE_URL: process.env.TEST_DATABASE_URL, REDIS_URL: process.env.TEST_REDIS_URL, SVC_MOCK_PROVIDER: '1', LOG_LEVEL: 'silent' });
    const [a, b] = await Promise.all([createRuntime(env), createRuntime(env)]);
    try {
      const org = await a.db.orgs.ensure(`shared-${randomUUID()}`);
      const { record, secret } = await a.authenticator.issue({ orgId: org.id, scopes: ['inference:chat'] });
      const appB = createInferenceApp({ ...b, maxBodyBytes: 1024 * 1024 });
      const callB = () =>
        appB.request('/v1/chat/completions', {
          method: 'POST',
          headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'svc/auto', messages: [{ role: 'user', content: 'hi' }] }),
        });
      expect((await callB()).status).toBe(200); // B has now cached the key as valid
      await a.authenticator.revoke(record.id);
      await expect.poll(async () => (await callB()).status, { timeout: 1_000, interval: 50 }).toBe(401);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('applies a key\'s new limits on another instance at once, counted in the shared buckets', async () => {
    const env = parseEnv({ DATABASE_URL: process.env.TEST_DATABASE_URL, REDIS_URL: process.env.TEST_REDIS_URL, SVC_MOCK_PROVIDER: '1', LOG_LEVEL: 'silent' });
    const [a, b] = await Promise.all([createRuntime(env), createRuntime(env)]);
    try {
      const org = await a.db.orgs.ensure(`shared-limits-${randomUUID()}`);
      const { record, secret } = await a.authenticator.issue({ orgId: org.id, scopes: ['inference:chat'] });
      const [appA, appB] = [createInferenceApp({ ...a, maxBodyBytes: 1024 * 1024 }), createInferenceApp({ ...b, maxBodyBytes: 1024 * 1024 })];
      const call = (app: typeof appA) =>
        app.request('/v1/chat/completions', {
          method: 'POST',
          headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'svc/auto', messages: [{ role: 'user', content: 'hi' }] }),
        });
      expect((await call(appB)).status).toBe(200); // B has the key cached without limits
      await a.authenticator.update(record.id, { rpmLimit: 2 });
      await expect.poll(async () => (await b.authenticator.authenticate(secret)).keyLimits, { timeout: 1_000, interval: 50 }).toEqual({ rpm: 2, tpm: null, monthlyBudgetUsd: null });
      // Two requests a minute, across both instances.
      expect((await call(appA)).status).toBe(200);
      expect((await call(appB)).status).toBe(200);
      expect((await call(appA)).status).toBe(429);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});

describe('admin memory of an organisation', () => {
  it('sets memory_scope, lists an end user’s facts, deletes one and forgets the end user', async () => {
    const org = await json<{ id: string; memory_scope: string }>(await admin('POST', '/v1/admin/orgs', { name: `memory-${randomUUID()}` }));
    expect(org.memory_scope).toBe('end_user');
    expect(await json(await admin('PATCH', `/v1/admin/orgs/${org.id}`, { memory_scope: 'organization' }))).toMatchObject({ memory_scope: 'organization' });
    expect((await admin('PATCH', `/v1/admin/orgs/${org.id}`, { memory_scope: 'everyone' })).status).toBe(400);

    runtime.memory.remember({ orgId: org.id, subject: endUserSubject(org.id, 'ada') }, 'I live in Lisbon. I have two cats.');
    await runtime.memory.idle();
    const listed = await json<{ data: { id: string; text: string }[] }>(await admin('GET', `/v1/admin/orgs/${org.id}/memory?user=ada`));
    expect(listed.data.map((m) => m.text).sort()).toEqual(['I have two cats.', 'I live in Lisbon.']);
    expect(await json(await admin('DELETE', `/v1/admin/orgs/${org.id}/memory/${listed.data[0]!.id}`))).toMatchObject({ deleted: true });
    expect((await admin('DELETE', `/v1/admin/orgs/${org.id}/memory/${listed.data[0]!.id}`)).status).toBe(404);
    expect(await json(await admin('DELETE', `/v1/admin/orgs/${org.id}/memory?user=ada`))).toEqual({ object: 'memory.forgotten', user: 'ada', deleted: 1 });
    expect((await admin('GET', `/v1/admin/orgs/${org.id}/memory`)).status).toBe(400);
    expect((await admin('GET', `/v1/admin/orgs/${randomUUID()}/memory?user=ada`)).status).toBe(404);
  });
});
