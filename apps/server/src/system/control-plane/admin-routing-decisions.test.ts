import { randomUUID } from 'node:crypto';
import type { Organization } from '@svc/core';
import { createInferenceApp } from '@svc/inference';
import { type Runtime, createRuntime } from '../../runtime/runtime.js';
import { parseEnv } from '../../runtime/env.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createControlPlaneApp } from '@svc/control-plane';

const master = 'sk-svc-decisions-test-master-tsVTgP4pN7ckgnSappTxBOdO';
const hour = 3_600_000;
let runtime: Runtime;
let control: ReturnType<typeof createControlPlaneApp>;
let acme: Organization;
let globex: Organization;
let chatRequestId: string;

beforeAll(async () => {
  runtime = await createRuntime(parseEnv({ SVC_DATA_DIR: 'memory://', SVC_SENTENCE_ENCODER: 'hashed', SVC_MASTER_KEY: master, SVC_MOCK_PROVIDER: '1', LOG_LEVEL: 'silent' }));
  control = createControlPlaneApp({ ...runtime, maxBodyBytes: 64 * 1024 });
  [acme, globex] = await Promise.all([runtime.db.orgs.ensure(`acme-${randomUUID()}`), runtime.db.orgs.ensure(`globex-${randomUUID()}`)]);
  const ago = (ms: number) => new Date(Date.now() - ms);
  await runtime.db.decisions.insertMany([
    {
      requestId: 'req_acme_recent',
      orgId: acme.id,
      requestedModel: 'svc/auto',
      model: 'openai/gpt-4o-mini',
      provider: 'openai',
      tier: 'T2',
      lane: 'smart',
      source: 'Router',
      taskFamily: 'code',
      intelligenceMode: 'full',
      attempts: [
        { model: 'anthropic/claude-3-5-haiku', outcome: 'error', status: 503 },
        { model: 'openai/gpt-4o-mini', outcome: 'ok' },
      ],
      candidates: [{ id: 'openai/gpt-4o-mini', score: 0.8 }],
      outcome: 'ok',
      details: { usageEstimated: true },
      latencyMs: 420,
      createdAt: ago(36 * hour),
    },
    { requestId: 'req_acme_old', orgId: acme.id, model: 'anthropic/claude-3-5-haiku', provider: 'anthropic', source: 'Pinned', outcome: 'ok', createdAt: ago(10 * 24 * hour) },
    { requestId: 'req_acme_ancient', orgId: acme.id, model: 'openai/gpt-4o-mini', provider: 'openai', source: 'Router', outcome: 'error', createdAt: ago(400 * 24 * hour) },
    { requestId: 'req_globex_now', orgId: globex.id, model: 'openai/gpt-4o-mini', provider: 'openai', source: 'Router', outcome: 'ok', createdAt: ago(2 * hour) },
  ]);
  // And one decision from real traffic, written by the learn stage.
  const inference = createInferenceApp({ ...runtime, maxBodyBytes: 64 * 1024 });
  const chat = await inference.request('/v1/chat/completions', {
    method: 'POST',
    headers: { authorization: `Bearer ${master}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'svc/auto', messages: [{ role: 'user', content: 'Write a haiku about routers.' }] }),
  });
  expect(chat.status).toBe(200);
  chatRequestId = chat.headers.get('x-request-id')!;
  await runtime.learn.flush();
});
afterAll(async () => {
  await runtime?.close();
});

const get = (path: string, key: string | null = master) => control.request(path, key === null ? {} : { headers: { authorization: `Bearer ${key}` } });
const json = async <T = Record<string, unknown>>(response: Response) => (await response.json()) as T;
const ids = async (query = '') => {
  const response = await get(`/v1/admin/routing/decisions${query}`);
  expect(response.status, query).toBe(200);
  return (await json<{ request_id: string }[]>(response)).map((d) => d.request_id);
};
const expect400 = async (path: string, param: string) => {
  const response = await get(path);
  expect(response.status, path).toBe(400);
  expect(await json(response), path).toMatchObject({ error: { type: 'invalid_request_error', param } });
};

describe('routing decisions: authorisation', () => {
  it('needs a key (401) with the admin role (403)', async () => {
    const observer = await runtime.authenticator.issue({ orgId: acme.id, scopes: ['observability:read', 'inference:chat'] });
    for (const path of ['/v1/admin/routing/decisions', '/v1/admin/routing/decisions/req_acme_recent']) {
      expect((await get(path, null)).status).toBe(401);
      expect((await get(path, observer.secret)).status).toBe(403);
    }
  });
});

describe('GET /v1/admin/routing/decisions', () => {
  it('lists the last 7 days, newest first, as DecisionSummary objects', async () => {
    expect(await ids()).toEqual([chatRequestId, 'req_globex_now', 'req_acme_recent']);
    const list = await json<Record<string, unknown>[]>(await get('/v1/admin/routing/decisions'));
    expect(list.find((d) => d.request_id === 'req_acme_recent')).toEqual({
      object: 'routing_decision',
      request_id: 'req_acme_recent',
      org_id: acme.id,
      tenant_id: acme.id,
      requested_model: 'svc/auto',
      model: 'openai/gpt-4o-mini',
      provider: 'openai',
      tier: 'T2',
      lane: 'smart',
      source: 'Router',
      task_family: 'code',
      intelligence_mode: 'full',
      outcome: 'ok',
      latency_ms: 420,
      attempt_count: 2,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
    });
    expect(list.find((d) => d.request_id === chatRequestId)).toMatchObject({ requested_model: 'svc/auto', provider: 'mock', outcome: 'ok' });
  });

  it('clamps days to 1..365', async () => {
    expect(await ids('?days=30')).toContain('req_acme_old');
    expect(await ids('?days=30')).not.toContain('req_acme_ancient');
    expect(await ids('?days=100000')).not.toContain('req_acme_ancient');
    expect(await ids('?days=365')).toHaveLength(4);
    expect(await ids('?days=0')).toEqual([chatRequestId, 'req_globex_now']);
    expect(await ids('?days=-3')).toEqual([chatRequestId, 'req_globex_now']);
  });

  it('filters by tenant_id and model, and limits the rows', async () => {
    expect(await ids(`?tenant_id=${acme.id}&days=30`)).toEqual(['req_acme_recent', 'req_acme_old']);
    expect(await ids('?tenant_id=not-a-uuid')).toEqual([]);
    expect(await ids(`?tenant_id=${'a'.repeat(64)}`)).toEqual([]);
    expect(await ids('?model=openai/gpt-4o-mini')).toEqual(['req_globex_now', 'req_acme_recent']);
    expect(await ids(`?model=${'m'.repeat(50)}`)).toEqual([]);
    expect(await ids('?limit=1')).toEqual([chatRequestId]);
    expect(await ids('?limit=1000&days=365')).toHaveLength(4);
    expect(await ids('?model=&tenant_id=&limit=')).toHaveLength(3);
  });

  it('answers 400 naming the query parameter', async () => {
    await expect400(`/v1/admin/routing/decisions?tenant_id=${'a'.repeat(65)}`, 'tenant_id');
    await expect400(`/v1/admin/routing/decisions?model=${'m'.repeat(51)}`, 'model');
    for (const days of ['abc', '1.5', '7d']) await expect400(`/v1/admin/routing/decisions?days=${days}`, 'days');
    for (const limit of ['0', '-1', '1001', 'ten', '2.5']) await expect400(`/v1/admin/routing/decisions?limit=${limit}`, 'limit');
  });
});

describe('GET /v1/admin/routing/decisions/{request_id}', () => {
  it('answers the DecisionDetail: summary plus attempts, candidates and details', async () => {
    const response = await get('/v1/admin/routing/decisions/req_acme_recent');
    expect(response.status).toBe(200);
    expect(await json(response)).toMatchObject({
      request_id: 'req_acme_recent',
      org_id: acme.id,
      attempt_count: 2,
      attempts: [
        { model: 'anthropic/claude-3-5-haiku', outcome: 'error', status: 503 },
        { model: 'openai/gpt-4o-mini', outcome: 'ok' },
      ],
      candidates: [{ id: 'openai/gpt-4o-mini', score: 0.8 }],
      details: { usageEstimated: true },
    });
    const fromTraffic = await json<{ attempts: unknown[]; attempt_count: number }>(await get(`/v1/admin/routing/decisions/${chatRequestId}`));
    expect(fromTraffic.attempts.length).toBe(fromTraffic.attempt_count);
    expect(fromTraffic.attempt_count).toBeGreaterThan(0);
  });

  it('answers 404 for an unknown id and 400 for an invalid one', async () => {
    const missing = await get('/v1/admin/routing/decisions/req_missing');
    expect(missing.status).toBe(404);
    expect(await json(missing)).toMatchObject({ error: { type: 'not_found_error', param: 'request_id' } });
    await expect400('/v1/admin/routing/decisions/req.1', 'request_id');
    await expect400('/v1/admin/routing/decisions/req%20one', 'request_id');
    await expect400(`/v1/admin/routing/decisions/${'r'.repeat(201)}`, 'request_id');
  });
});
