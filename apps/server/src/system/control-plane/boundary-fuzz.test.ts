import { runBoundaryFuzz } from '@svc/openapi/test';
import { type Runtime, createRuntime } from '../../runtime/runtime.js';
import { parseEnv } from '../../runtime/env.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createControlPlaneApp } from '@svc/control-plane';
import { masterKey } from '../../e2e/harness.js';

// The master key every suite on the shared PostgreSQL uses: a different one would supersede theirs.
const master = masterKey;
let runtime: Runtime;
let app: ReturnType<typeof createControlPlaneApp>;
let tenant: string;
let orgId: string;
let keyId: string;

// PostgreSQL when the integration URL is set: it is what refuses NUL bytes, lone surrogates and
// out-of-range integers, so it is where a missing check turns into a 500.
const store = process.env.TEST_DATABASE_URL ? { DATABASE_URL: process.env.TEST_DATABASE_URL } : { SVC_DATA_DIR: 'memory://' };

beforeAll(async () => {
  runtime = await createRuntime(parseEnv({ ...store, SVC_MASTER_KEY: master, SVC_MOCK_PROVIDER: '1', LOG_LEVEL: 'silent' }));
  app = createControlPlaneApp({ ...runtime, maxBodyBytes: 256 * 1024 });
  const org = await runtime.db.orgs.ensure(`fuzz-${Math.random()}`);
  const issued = await runtime.authenticator.issue({ orgId: org.id, scopes: ['inference:chat', 'observability:read', 'settings:write'] });
  tenant = issued.secret;
  orgId = org.id;
  keyId = issued.record.id;
});
afterAll(async () => {
  await runtime?.close();
});

describe('control plane: hostile input at the boundary', () => {
  runBoundaryFuzz({
    app: () => app,
    keys: () => [master, tenant],
    pathValue: (name, path) => {
      if (name === 'id' && path.startsWith('/v1/admin/orgs/')) return orgId;
      if (name === 'id' && path.startsWith('/v1/admin/keys/')) return keyId;
      if (name === 'name') return 'get_weather';
      if (name === 'provider') return 'openai';
      return undefined;
    },
  });
});

describe('control plane: the shapes of issue 20 are 400s naming the field', () => {
  const send = (method: string, path: string, body?: string) =>
    app.request(path, { method, headers: { authorization: `Bearer ${master}`, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body }) });
  const expect400 = async (response: Response, param: string | null) => {
    expect(response.status, await response.clone().text()).toBe(400);
    expect(response.headers.get('x-error-id')).toBeTruthy();
    expect(await response.json()).toMatchObject({ error: { type: 'invalid_request_error', param } });
  };

  it('refuses NUL in names, plans, descriptions', async () => {
    await expect400(await send('POST', '/v1/admin/orgs', '{"name":"a\\u0000b"}'), 'name');
    await expect400(await send('PATCH', `/v1/admin/orgs/${orgId}`, '{"plan":"pro\\u0000"}'), 'plan');
    await expect400(await send('PATCH', `/v1/admin/keys/${keyId}`, '{"name":"\\u0000"}'), 'name');
    await expect400(await send('PUT', `/v1/admin/orgs/${orgId}/tools/get_weather`, '{"description":"x\\u0000","parameters":{"type":"object"}}'), 'description');
    await expect400(await send('POST', '/v1/slo', '{"name":"a\\u0000","metric":"availability","threshold":1,"target":0.99,"window_days":7}'), 'name');
  });

  it('refuses %00 and non-UTF-8 escapes as path ids', async () => {
    for (const [method, path] of [
      ['GET', '/v1/admin/keys/%00/spend'],
      ['PATCH', '/v1/admin/keys/%00'],
      ['DELETE', '/v1/admin/keys/%00'],
      ['GET', `/v1/admin/orgs/${orgId}/tools/%00`],
      ['DELETE', `/v1/admin/orgs/${orgId}/tools/%ED%A0%80`],
    ] as const) {
      const response = await send(method, path, method === 'PATCH' ? '{}' : undefined);
      expect(response.status, `${method} ${path}`).toBe(400);
      expect(await response.json()).toMatchObject({ error: { code: 'invalid_url' } });
    }
  });

  it('refuses limits no column holds', async () => {
    for (const field of ['rpm_limit', 'tpm_limit', 'token_quota']) {
      for (const value of ['1e308', '9007199254740993']) {
        await expect400(await send('PATCH', `/v1/admin/orgs/${orgId}`, `{"${field}":${value}}`), field);
      }
    }
  });

  it('refuses tool parameters 5,000 deep or holding a lone surrogate', async () => {
    const tool = (parameters: string) => send('PUT', `/v1/admin/orgs/${orgId}/tools/get_weather`, `{"description":"d","parameters":${parameters}}`);
    const deep = await tool(`${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`);
    expect(deep.status).toBe(400);
    expect(await deep.json()).toMatchObject({ error: { code: 'nesting_too_deep' } });
    await expect400(await tool('{"type":"object","description":"\\ud800x"}'), 'parameters.description');
  });
});
