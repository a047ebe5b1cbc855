import { type Runtime, createRuntime } from '../../runtime/runtime.js';
import { parseEnv } from '../../runtime/env.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createControlPlaneApp } from '@svc/control-plane';

const master = 'sk-svc-api-headers-control-master-uyW2GUqzp21lwhcmxSNu7eFz';
let runtime: Runtime;
let app: ReturnType<typeof createControlPlaneApp>;

beforeAll(async () => {
  runtime = await createRuntime(parseEnv({ SVC_DATA_DIR: 'memory://', SVC_MASTER_KEY: master, SVC_MOCK_PROVIDER: '1', LOG_LEVEL: 'silent' }));
  app = createControlPlaneApp({ ...runtime, maxBodyBytes: 64 * 1024 });
});
afterAll(async () => {
  await runtime?.close();
});

const expectApiHeaders = (response: Response, what: string) => {
  expect(response.headers.get('x-content-type-options'), what).toBe('nosniff');
  expect(response.headers.get('cache-control'), what).toBe('no-store');
};

describe('control-plane answer headers', () => {
  it('nosniff and no-store on API answers: the new key with its secret, lists, errors', async () => {
    const org = await runtime.db.orgs.ensure(`headers-${Math.random()}`);
    const created = await app.request('/v1/admin/keys', {
      method: 'POST',
      headers: { authorization: `Bearer ${master}`, 'content-type': 'application/json' },
      body: JSON.stringify({ org_id: org.id, name: 'k' }),
    });
    expect(created.status).toBe(201);
    expectApiHeaders(created, 'POST /v1/admin/keys');
    expectApiHeaders(await app.request('/v1/observability/breakers', { headers: { authorization: `Bearer ${master}` } }), 'GET breakers');
    expectApiHeaders(await app.request('/v1/observability/breakers'), '401');
    expectApiHeaders(await app.request('/v1/nothing-here'), '404');
  });

  it('leaves the caching a route chose: the dashboard assets, the discovery documents', async () => {
    const asset = await app.request('/dashboard/assets/dashboard.css');
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=300');
    expect(asset.headers.get('x-content-type-options')).toBe('nosniff');
  });
});
