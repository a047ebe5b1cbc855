import { randomUUID } from 'node:crypto';
import { CachedGovernanceSource } from '@svc/governance';
import { describe, expect, it } from 'vitest';
import { jsonOf, useControlPlane } from './control-plane-app.js';

const master = 'sk-svc-admin-tools-test-master-GPrmDFMbqkxDaykD4fXlISHA';
const app = useControlPlane(master, { SVC_MOCK_PROVIDER: '1' });
const { call } = app;
const json = jsonOf;
const newOrg = () => app.runtime.db.orgs.ensure(`tools-${randomUUID()}`);
const weather = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };

describe('tool governance admin API', () => {
  it('needs the admin role', async () => {
    const org = await newOrg();
    const plain = await app.runtime.authenticator.issue({ orgId: org.id, scopes: ['inference:chat', 'observability:read'] });
    for (const [method, path] of [
      ['GET', `/v1/admin/orgs/${org.id}/tools`],
      ['PUT', `/v1/admin/orgs/${org.id}/tools/search`],
      ['DELETE', `/v1/admin/orgs/${org.id}/tools/search`],
      ['GET', `/v1/admin/orgs/${org.id}/tool-policy`],
      ['PUT', `/v1/admin/orgs/${org.id}/tool-policy`],
    ] as const) {
      const body = method === 'PUT' ? { parameters: {} } : undefined;
      expect((await call(method, path, body, null)).status, `${method} ${path} without a key`).toBe(401);
      const denied = await call(method, path, body, plain.secret);
      expect(denied.status, `${method} ${path} without admin`).toBe(403);
      expect(await denied.json()).toMatchObject({ error: { type: 'authorization_error', code: 'forbidden' } });
    }
    expect(await app.runtime.db.toolGovernance.listTools(org.id)).toEqual([]);
  });

  it('registers (201), replaces (200), lists, reads and deletes tools', async () => {
    const org = await newOrg();
    const base = `/v1/admin/orgs/${org.id}/tools`;
    const created = await json(await call('PUT', `${base}/get_weather`, { description: 'Weather by city', parameters: weather }), 201);
    expect(created).toMatchObject({ object: 'tool', name: 'get_weather', description: 'Weather by city', parameters: weather });
    expect(created.created_at).toEqual(expect.any(String));
    await json(await call('PUT', `${base}/mcp.fs:read`, { parameters: {} }), 201);

    const replaced = await json(await call('PUT', `${base}/get_weather`, { parameters: { type: 'object' } }));
    expect(replaced).toMatchObject({ name: 'get_weather', description: null, parameters: { type: 'object' }, created_at: created.created_at });

    const list = await json<{ object: string; data: { name: string }[] }>(await call('GET', base));
    expect(list.object).toBe('list');
    expect(list.data.map((tool) => tool.name)).toEqual(['get_weather', 'mcp.fs:read']);
    expect(await json(await call('GET', `${base}/get_weather`))).toEqual(replaced);

    expect(await json(await call('DELETE', `${base}/get_weather`))).toEqual({ object: 'tool', name: 'get_weather', deleted: true });
    expect(await json(await call('GET', `${base}/get_weather`), 404)).toMatchObject({ error: { type: 'not_found_error', param: 'name' } });
    expect(await json(await call('DELETE', `${base}/get_weather`), 404)).toMatchObject({ error: { param: 'name' } });
  });

  it('answers 404 for an unknown organisation', async () => {
    for (const id of [randomUUID(), 'not-a-uuid']) {
      for (const [method, path, body] of [
        ['GET', `/v1/admin/orgs/${id}/tools`, undefined],
        ['GET', `/v1/admin/orgs/${id}/tools/search`, undefined],
        ['PUT', `/v1/admin/orgs/${id}/tools/search`, { parameters: {} }],
        ['DELETE', `/v1/admin/orgs/${id}/tools/search`, undefined],
        ['GET', `/v1/admin/orgs/${id}/tool-policy`, undefined],
        ['PUT', `/v1/admin/orgs/${id}/tool-policy`, { enforce_registry: true }],
      ] as const) {
        expect(await json(await call(method, path, body), 404), `${method} ${path}`).toMatchObject({ error: { type: 'not_found_error', param: 'id' } });
      }
    }
  });

  it('validates tool bodies and names (400 naming the field)', async () => {
    const org = await newOrg();
    const base = `/v1/admin/orgs/${org.id}/tools`;
    const cases: [string, unknown, string][] = [
      ['search', {}, 'parameters'],
      ['search', { parameters: [] }, 'parameters'],
      ['search', { parameters: { type: 'string' } }, 'parameters'],
      ['search', { parameters: {}, description: 'x'.repeat(1025) }, 'description'],
      ['bad name', { parameters: {} }, 'name'],
      ['x'.repeat(129), { parameters: {} }, 'name'],
    ];
    for (const [name, body, param] of cases) {
      const error = await json(await call('PUT', `${base}/${encodeURIComponent(name)}`, body), 400);
      expect(error, JSON.stringify(body)).toMatchObject({ error: { type: 'invalid_request_error', code: 'validation_error', param } });
    }
    expect(await app.runtime.db.toolGovernance.listTools(org.id)).toEqual([]);
  });

  it('reads the default policy, replaces it as a whole and returns what it stored', async () => {
    const org = await newOrg();
    const path = `/v1/admin/orgs/${org.id}/tool-policy`;
    expect(await json(await call('GET', path))).toEqual({
      object: 'tool_policy',
      org_id: org.id,
      enforce_registry: false,
      require_schema_match: false,
      blocked_tools: [],
      blocked_argument_patterns: [],
      updated_at: null,
    });
    const policy = {
      enforce_registry: true,
      blocked_tools: ['shell_*', 'delete_user'],
      blocked_argument_patterns: [{ tool: 'run_sql', argument: 'query', pattern: '\\bdrop\\s+table\\b' }, { tool: '*', pattern: 'rm -rf' }],
    };
    const stored = await json(await call('PUT', path, policy));
    expect(stored).toMatchObject({ ...policy, require_schema_match: false, updated_at: expect.any(String) });
    expect(await json(await call('GET', path))).toEqual(stored);
    expect(await json(await call('PUT', path, { require_schema_match: true }))).toMatchObject({ enforce_registry: false, require_schema_match: true, blocked_tools: [], blocked_argument_patterns: [] });
  });

  it('validates policies (400 naming the field) and keeps the stored one', async () => {
    const org = await newOrg();
    const path = `/v1/admin/orgs/${org.id}/tool-policy`;
    await json(await call('PUT', path, { blocked_tools: ['keep'] }));
    const cases: [unknown, string][] = [
      [{ enforce_registry: 'yes' }, 'enforce_registry'],
      [{ blocked_tools: 'shell_*' }, 'blocked_tools'],
      [{ blocked_tools: ['ok', ''] }, 'blocked_tools.1'],
      [{ blocked_tools: Array.from({ length: 101 }, (_, i) => `t${i}`) }, 'blocked_tools'],
      [{ blocked_argument_patterns: [{ tool: 'a' }] }, 'blocked_argument_patterns.0.pattern'],
      [{ blocked_argument_patterns: [{ tool: 'a', pattern: 'ok' }, { tool: 'b', pattern: '([a-z' }] }, 'blocked_argument_patterns.1.pattern'],
      [{ blocked_argument_patterns: [{ tool: 'a', argument: 'x..y', pattern: 'z' }] }, 'blocked_argument_patterns.0.argument'],
    ];
    for (const [body, param] of cases) {
      expect(await json(await call('PUT', path, body), 400), JSON.stringify(body).slice(0, 80)).toMatchObject({ error: { type: 'invalid_request_error', param } });
    }
    expect(await json(await call('GET', path))).toMatchObject({ blocked_tools: ['keep'] });
  });

  it('every write reaches the cached governance at once, here and on other instances sharing the kv', async () => {
    const org = await newOrg();
    const elsewhere = new CachedGovernanceSource({
      load: async (orgId) => ({ tools: await app.runtime.db.toolGovernance.listTools(orgId), policy: await app.runtime.db.toolGovernance.getPolicy(orgId) }),
      bus: app.runtime.kv,
    });
    await elsewhere.start();
    try {
      expect((await app.runtime.governance.get(org.id)).active).toBe(false);
      expect((await elsewhere.get(org.id)).active).toBe(false);

      await json(await call('PUT', `/v1/admin/orgs/${org.id}/tool-policy`, { enforce_registry: true }));
      await json(await call('PUT', `/v1/admin/orgs/${org.id}/tools/search`, { parameters: {} }), 201);
      const here = await app.runtime.governance.get(org.id);
      expect(here.active).toBe(true);
      expect([...here.registry.keys()]).toEqual(['search']);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect([...(await elsewhere.get(org.id)).registry.keys()]).toEqual(['search']);

      await json(await call('DELETE', `/v1/admin/orgs/${org.id}/tools/search`));
      expect((await app.runtime.governance.get(org.id)).nameBlock('search')).toBe('not_registered');
    } finally {
      await elsewhere.stop();
    }
  });
});
