import { keySubject } from '@svc/memory';
import { defaultKeyScopes } from '@svc/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { masterKey, startGateway } from '../harness.js';
import { ROUTE_CLASSES } from './route-classes.js';

type Gateway = Awaited<ReturnType<typeof startGateway>>;
type Operation = { app: 'inference' | 'control'; method: string; path: string; orgQuery: boolean };
interface Tenant {
  orgId: string;
  keyId: string;
  key: string;
  memoryId: string;
  sloId: string;
  requestId: string;
  responseId: string;
  fileId: string;
  batchId: string;
  messageBatchId: string;
}

const slo = { name: 'isolation', metric: 'availability', threshold: 0.9, target: 0.95, window_days: 7 };
/** A valid body for the writes that take `?org_id=` (bodies are validated first: a 400 would hide the tenancy check). */
const validBodies: Readonly<Record<string, unknown>> = {
  'POST /v1/slo': slo,
  'POST /v1/onboarding/progress': { step: 'go_live', completed: true },
  'PUT /v1/output/config': {},
};

/** Every operation both apps publish in `/openapi.json` (built from their route registries). */
async function operations(gateway: Gateway): Promise<Operation[]> {
  const out: Operation[] = [];
  for (const app of ['inference', 'control'] as const) {
    const url = app === 'inference' ? gateway.inferenceUrl : gateway.controlUrl;
    const document = (await (await fetch(`${url}/openapi.json`)).json()) as { paths: Record<string, Record<string, { parameters?: { name: string; in: string }[] }>> };
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        out.push({ app, method: method.toUpperCase(), path, orgQuery: (operation.parameters ?? []).some((p) => p.in === 'query' && p.name === 'org_id') });
      }
    }
  }
  return out;
}

/**
 * Tenant isolation across every route of both apps (issue 20): with two organisations' keys,
 * every route refuses the other organisation's ids and objects (403/404) and answers only the
 * caller's own. The route list comes from the apps' registries, so a new route is covered or
 * fails as unclassified (`route-classes.ts`).
 */
describe('tenant isolation, every route of both apps', () => {
  let gateway: Gateway;
  let ops: Operation[];
  let a: Tenant;
  let b: Tenant;

  const call = (op: Pick<Operation, 'app' | 'method'>, path: string, key: string | undefined, body?: unknown) =>
    fetch(`${op.app === 'inference' ? gateway.inferenceUrl : gateway.controlUrl}${path}`, {
      method: op.method,
      headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), 'content-type': 'application/json' },
      ...(op.method === 'GET' || op.method === 'HEAD' || op.method === 'DELETE' ? {} : { body: JSON.stringify(body ?? {}) }),
    });

  async function uploadFile(key: string, name: string): Promise<string> {
    const form = new FormData();
    form.set('purpose', 'user_data');
    form.set('file', new Blob([`file of ${name}`]), `${name}.txt`);
    const uploaded = await fetch(`${gateway.inferenceUrl}/v1/files`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form });
    expect(uploaded.status).toBe(200);
    return ((await uploaded.json()) as { id: string }).id;
  }

  /** A batch of one chat line: its input file is `purpose: batch`. */
  async function createBatch(key: string, name: string): Promise<string> {
    const line = { custom_id: name, method: 'POST', url: '/v1/chat/completions', body: { model: 'svc/auto', messages: [{ role: 'user', content: `batch of ${name}` }] } };
    const form = new FormData();
    form.set('purpose', 'batch');
    form.set('file', new Blob([JSON.stringify(line)]), `${name}.jsonl`);
    const uploaded = await fetch(`${gateway.inferenceUrl}/v1/files`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form });
    const input_file_id = ((await uploaded.json()) as { id: string }).id;
    const created = await call({ app: 'inference', method: 'POST' }, '/v1/batches', key, { input_file_id, endpoint: '/v1/chat/completions', completion_window: '24h' });
    expect(created.status).toBe(200);
    return ((await created.json()) as { id: string }).id;
  }

  async function tenant(name: string): Promise<Tenant> {
    const { runtime } = gateway;
    const org = await runtime.db.orgs.ensure(`${name}-${Math.random()}`);
    const { secret, record } = await runtime.authenticator.issue({ orgId: org.id, scopes: [...defaultKeyScopes] });
    runtime.memory.remember({ orgId: org.id, subject: keySubject(record.id) }, `I am ${name} and my favourite colour is teal.`);
    const listed = async () => ((await (await call({ app: 'inference', method: 'GET' }, '/v1/memory', secret)).json()) as { data: { id: string }[] }).data;
    let memories = await listed();
    for (let tries = 0; memories.length === 0 && tries < 100; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      memories = await listed();
    }
    const memoryId = memories[0]!.id;
    const created = await call({ app: 'control', method: 'POST' }, '/v1/slo', secret, slo);
    expect(created.status).toBe(200);
    const sloId = ((await created.json()) as { id: string }).id;
    const chat = await call({ app: 'inference', method: 'POST' }, '/v1/chat/completions', secret, { model: 'svc/auto', messages: [{ role: 'user', content: `hello from ${name}` }] });
    expect(chat.status).toBe(200);
    const kept = await call({ app: 'inference', method: 'POST' }, '/v1/responses', secret, { model: 'svc/auto', input: `kept for ${name}` });
    expect(kept.status).toBe(200);
    const responseId = ((await kept.json()) as { id: string }).id;
    const fileId = await uploadFile(secret, name);
    const batchId = await createBatch(secret, name);
    const messageBatch = await call({ app: 'inference', method: 'POST' }, '/v1/messages/batches', secret, { requests: [{ custom_id: name, params: { model: 'svc/auto', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] } }] });
    expect(messageBatch.status).toBe(200);
    const messageBatchId = ((await messageBatch.json()) as { id: string }).id;
    return { orgId: org.id, keyId: record.id, key: secret, memoryId, sloId, requestId: chat.headers.get('x-svc-request-id')!, responseId, fileId, batchId, messageBatchId };
  }

  beforeAll(async () => {
    gateway = await startGateway({ SVC_MOCK_PROVIDER: '1' });
    ops = await operations(gateway);
    a = await tenant('org-a');
    b = await tenant('org-b');
    await gateway.runtime.learn.flush();
  }, 60_000);
  afterAll(async () => {
    await gateway?.stop();
  });

  /** `path` with its parameters naming organisation `owner`'s objects. */
  const fill = (path: string, owner: Tenant) =>
    path
      .replace('/v1/admin/keys/{id}', `/v1/admin/keys/${owner.keyId}`)
      .replace('/v1/slo/{id}', `/v1/slo/${owner.sloId}`)
      .replace('/v1/memory/{id}', `/v1/memory/${owner.memoryId}`)
      .replace('{response_id}', owner.responseId)
      .replace('{file_id}', owner.fileId)
      .replace('{batch_id}', owner.batchId)
      .replace('{message_batch_id}', owner.messageBatchId)
      .replace('{id}', owner.orgId)
      .replace('{memory}', owner.memoryId)
      .replace('{request_id}', owner.requestId)
      .replace('{name}', 'get_weather')
      .replace('{provider}', 'openai')
      .replace('{model}', 'mock/mock-speed')
      .replace('{key}', 'semantic_cache')
      .replace('{path}', 'v1');

  it('classifies every operation of both apps', () => {
    expect(ops.length).toBeGreaterThan(90);
    expect(ops.map((op) => `${op.method} ${op.path}`).filter((name) => ROUTE_CLASSES[name] === undefined)).toEqual([]);
  });

  it('admin operations refuse a tenant key (403), whichever organisation they name', async () => {
    const wrong: string[] = [];
    for (const op of ops.filter((o) => ROUTE_CLASSES[`${o.method} ${o.path}`] === 'admin')) {
      for (const owner of [a, b]) {
        const response = await call(op, fill(op.path, owner), a.key);
        if (response.status !== 403) wrong.push(`${op.method} ${fill(op.path, owner)}: ${response.status}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('every operation taking ?org_id= refuses another organisation (403 tenant_violation)', async () => {
    const wrong: string[] = [];
    const withOrg = ops.filter((op) => op.orgQuery && ROUTE_CLASSES[`${op.method} ${op.path}`] !== 'admin');
    expect(withOrg.length).toBeGreaterThan(5);
    for (const op of withOrg) {
      const response = await call(op, `${fill(op.path, b)}?org_id=${b.orgId}`, a.key, validBodies[`${op.method} ${op.path}`]);
      const body = (await response.json()) as { error?: { code?: string } };
      if (response.status !== 403 || body.error?.code !== 'tenant_violation') wrong.push(`${op.method} ${op.path}: ${response.status} ${body.error?.code}`);
    }
    expect(wrong).toEqual([]);
  });

  it("owned objects: another organisation's id is 404 and the object survives", async () => {
    const owned = ops.filter((op) => ROUTE_CLASSES[`${op.method} ${op.path}`] === 'owned');
    expect(owned.map((op) => `${op.method} ${op.path}`).sort()).toEqual([
      'DELETE /v1/files/{file_id}',
      'DELETE /v1/memory/{id}',
      'DELETE /v1/messages/batches/{message_batch_id}',
      'DELETE /v1/responses/{response_id}',
      'DELETE /v1/slo/{id}',
      'GET /v1/batches/{batch_id}',
      'GET /v1/files/{file_id}',
      'GET /v1/files/{file_id}/content',
      'GET /v1/messages/batches/{message_batch_id}',
      'GET /v1/messages/batches/{message_batch_id}/results',
      'GET /v1/responses/{response_id}',
      'GET /v1/responses/{response_id}/input_items',
      'POST /v1/batches/{batch_id}/cancel',
      'POST /v1/messages/batches/{message_batch_id}/cancel',
    ]);
    for (const op of owned) expect((await call(op, fill(op.path, b), a.key)).status, op.path).toBe(404);
    const memory = (await (await call({ app: 'inference', method: 'GET' }, '/v1/memory', b.key)).json()) as { data: { id: string }[] };
    expect(memory.data.map((m) => m.id)).toContain(b.memoryId);
    const slos = (await (await call({ app: 'control', method: 'GET' }, '/v1/slo', b.key)).json()) as { data: { id: string }[] };
    expect(slos.data.map((s) => s.id)).toContain(b.sloId);
    expect((await call({ app: 'inference', method: 'GET' }, `/v1/responses/${b.responseId}`, b.key)).status).toBe(200);
    expect((await call({ app: 'inference', method: 'GET' }, `/v1/files/${b.fileId}`, b.key)).status).toBe(200);
    const batch = (await (await call({ app: 'inference', method: 'GET' }, `/v1/batches/${b.batchId}`, b.key)).json()) as { status: string };
    expect(batch.status).not.toMatch(/^cancel/);
    const messageBatch = (await (await call({ app: 'inference', method: 'GET' }, `/v1/messages/batches/${b.messageBatchId}`, b.key)).json()) as { cancel_initiated_at: string | null };
    expect(messageBatch.cancel_initiated_at).toBeNull();
  });

  it("no GET answers a tenant anything of another organisation's (ids, keys, memory, requests)", async () => {
    const leaks: string[] = [];
    const secretsOfB = [b.orgId, b.keyId, b.memoryId, b.sloId, b.requestId, b.responseId, b.fileId, b.batchId, b.messageBatchId, 'org-b'];
    const reads = ops.filter((op) => op.method === 'GET' && ['own', 'platform', 'public'].includes(ROUTE_CLASSES[`${op.method} ${op.path}`] ?? '') && !op.path.includes('realtime') && !op.path.includes('{name}'));
    for (const op of reads) {
      const response = await call(op, fill(op.path, a), a.key);
      const text = await response.text();
      const found = secretsOfB.filter((value) => text.includes(value));
      if (found.length > 0) leaks.push(`${op.path} (${response.status}) holds ${found.join(', ')}`);
    }
    expect(reads.length).toBeGreaterThan(15);
    expect(leaks).toEqual([]);
  });

  it('session operations refuse a bearer key alone (401)', async () => {
    const wrong: string[] = [];
    for (const op of ops.filter((o) => ROUTE_CLASSES[`${o.method} ${o.path}`] === 'session')) {
      const response = await call(op, fill(op.path, b), a.key);
      if (response.status !== 401) wrong.push(`${op.method} ${op.path}: ${response.status}`);
    }
    expect(wrong).toEqual([]);
  });

  it('the admin key still reaches another organisation (the refusals above are tenancy, not breakage)', async () => {
    expect((await call({ app: 'control', method: 'GET' }, `/v1/admin/orgs/${b.orgId}/spend`, masterKey)).status).toBe(200);
    expect((await call({ app: 'control', method: 'GET' }, `/v1/slo?org_id=${b.orgId}`, masterKey)).status).toBe(200);
  });
});
