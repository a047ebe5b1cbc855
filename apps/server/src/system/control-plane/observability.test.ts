import { randomUUID } from 'node:crypto';
import { type Runtime, createRuntime } from '../../runtime/runtime.js';
import { parseEnv } from '../../runtime/env.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createControlPlaneApp } from '@svc/control-plane';

const master = 'sk-svc-observability-test-master-mg6DoEGEMQBYZwtOZL6GMYal';
let runtime: Runtime;
let app: ReturnType<typeof createControlPlaneApp>;

beforeAll(async () => {
  runtime = await createRuntime(parseEnv({ SVC_DATA_DIR: 'memory://', SVC_SENTENCE_ENCODER: 'hashed', SVC_MASTER_KEY: master, SVC_MOCK_PROVIDER: '1', LOG_LEVEL: 'silent' }));
  app = createControlPlaneApp({ ...runtime, maxBodyBytes: 64 * 1024 });
});
afterAll(async () => {
  await runtime?.close();
});

const call = (method: string, path: string, body?: string, key = master) =>
  app.request(path, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body }) });

describe('/v1/observability/breakers', () => {
  it('needs a key (401) with observability:read (403)', async () => {
    expect((await app.request('/v1/observability/breakers')).status).toBe(401);
    const org = await runtime.db.orgs.ensure(`obs-${randomUUID()}`);
    const chatOnly = await runtime.authenticator.issue({ orgId: org.id, scopes: ['inference:chat'] });
    const denied = await call('GET', '/v1/observability/breakers', undefined, chatOnly.secret);
    expect(denied.status).toBe(403);
    expect(await denied.json()).toMatchObject({ error: { code: 'insufficient_scopes' } });
  });

  it('lists breakers with state, counts, opened_at and next probe; reset is idempotent', async () => {
    for (let i = 0; i < 5; i++) await runtime.breakers.record('mock/mock-value', 'failure');
    await runtime.breakers.record('mock/mock-speed', 'success');
    const list = (await (await call('GET', '/v1/observability/breakers')).json()) as Record<string, unknown>[];
    const open = list.find((b) => b.key === 'mock/mock-value')!;
    expect(open).toMatchObject({ provider: 'mock', state: 'open', consecutive_failures: 5 });
    expect(Date.parse(open.opened_at as string)).toBeLessThanOrEqual(Date.now());
    expect(Date.parse(open.next_probe_at as string)).toBeGreaterThan(Date.parse(open.opened_at as string));
    expect(list.find((b) => b.key === 'mock/mock-speed')).toMatchObject({ state: 'closed', opened_at: null, next_probe_at: null });

    expect((await call('POST', '/v1/observability/breakers/reset', JSON.stringify({ key: 'mock/mock-value' }))).status).toBe(204);
    expect((await call('POST', '/v1/observability/breakers/reset', JSON.stringify({ key: 'mock/mock-value' }))).status).toBe(204);
    expect((await runtime.breakers.status('mock/mock-value')).state).toBe('closed');
    expect((await call('POST', '/v1/observability/breakers/reset', '{}')).status).toBe(204);
  });

  it('resets only with the admin role: breakers are platform state (403 for a tenant key)', async () => {
    for (let i = 0; i < 5; i++) await runtime.breakers.record('mock/mock-value', 'failure');
    const org = await runtime.db.orgs.ensure(`obs-${randomUUID()}`);
    const reader = await runtime.authenticator.issue({ orgId: org.id, scopes: ['observability:read'] });
    for (const body of ['{}', JSON.stringify({ key: 'mock/mock-value' })]) {
      const denied = await call('POST', '/v1/observability/breakers/reset', body, reader.secret);
      expect(denied.status).toBe(403);
      expect(denied.headers.get('x-error-id')).toBeTruthy();
    }
    expect((await runtime.breakers.status('mock/mock-value')).state).toBe('open');
    expect((await call('GET', '/v1/observability/breakers', undefined, reader.secret)).status).toBe(200);
    await runtime.breakers.reset();
  });

  it('validates the reset body (400)', async () => {
    expect((await call('POST', '/v1/observability/breakers/reset', 'not json')).status).toBe(400);
    expect((await call('POST', '/v1/observability/breakers/reset')).status).toBe(400);
    const bad = await call('POST', '/v1/observability/breakers/reset', JSON.stringify({ key: 7 }));
    expect(await bad.json()).toMatchObject({ error: { param: 'key' } });
    const typo = await call('POST', '/v1/observability/breakers/reset', JSON.stringify({ kye: 'mock/mock-value' }));
    expect(typo.status).toBe(400);
    expect(await typo.json()).toMatchObject({ error: { param: 'kye' } });
  });
});

describe('/v1/observability/hedging', () => {
  it('reports counters and learned latencies', async () => {
    runtime.hedging.latency.observe('mock/mock-value', 120);
    const stats = (await (await call('GET', '/v1/observability/hedging/stats')).json()) as Record<string, unknown>;
    expect(stats).toMatchObject({ enabled_by_default: false, requests: 0, fired: 0, secondary_wins: 0 });
    expect(stats.latency).toEqual(expect.arrayContaining([expect.objectContaining({ model: 'mock/mock-value', samples: 1 })]));
  });

  it('changes the default for admins only, validating the body', async () => {
    const org = await runtime.db.orgs.ensure(`hedge-${randomUUID()}`);
    const observer = await runtime.authenticator.issue({ orgId: org.id, scopes: ['observability:read'] });
    expect((await call('POST', '/v1/observability/hedging/config', JSON.stringify({ enabled_by_default: true }), observer.secret)).status).toBe(403);
    expect((await call('POST', '/v1/observability/hedging/config', JSON.stringify({ enabled_by_default: 'yes' }))).status).toBe(400);
    const changed = await call('POST', '/v1/observability/hedging/config', JSON.stringify({ enabled_by_default: true }));
    expect(await changed.json()).toEqual({ enabled_by_default: true });
    expect(runtime.hedging.config.enabledByDefault).toBe(true);
    await call('POST', '/v1/observability/hedging/config', JSON.stringify({ enabled_by_default: false }));
  });
});
