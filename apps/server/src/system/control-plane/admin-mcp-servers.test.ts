import { randomUUID } from 'node:crypto';
import { parseEncryptionKey } from '@svc/byok';
import { describe, expect, it } from 'vitest';
import { jsonOf, useControlPlane } from './control-plane-app.js';
import { masterKey } from '../../e2e/harness.js';

const encryptionKey = Buffer.alloc(32, 9).toString('base64');
const secret = 'Bearer mcp-upstream-secret-7788-wxyz';

const app = useControlPlane(masterKey, { SVC_ENCRYPTION_KEY: encryptionKey });
const { call } = app;
const json = jsonOf;
const newOrg = () => app.runtime.db.orgs.ensure(`mcp-${randomUUID()}`);
const registration = { url: 'https://tools.example.com/mcp', credential: { header: 'Authorization', value: secret }, tools: ['search', 'fetch'] };

describe('MCP servers admin API', () => {
  it('needs the admin role', async () => {
    const org = await newOrg();
    const plain = await app.runtime.authenticator.issue({ orgId: org.id, scopes: ['inference:chat'] });
    for (const [method, path] of [
      ['GET', `/v1/admin/orgs/${org.id}/mcp-servers`],
      ['GET', `/v1/admin/orgs/${org.id}/mcp-servers/tools`],
      ['PUT', `/v1/admin/orgs/${org.id}/mcp-servers/tools`],
      ['DELETE', `/v1/admin/orgs/${org.id}/mcp-servers/tools`],
    ] as const) {
      const body = method === 'PUT' ? registration : undefined;
      expect((await call(method, path, body, null)).status, `${method} ${path} without a key`).toBe(401);
      expect(await json(await call(method, path, body, plain.secret), 403)).toMatchObject({ error: { type: 'authorization_error' } });
    }
    expect(await app.runtime.db.mcpServers.list(org.id)).toEqual([]);
  });

  it('registers (201), lists, gets, replaces (200) and deletes a server; the credential never comes back', async () => {
    const org = await newOrg();
    const base = `/v1/admin/orgs/${org.id}/mcp-servers`;
    expect(await json(await call('GET', base))).toEqual({ object: 'list', data: [] });

    const created = await json(await call('PUT', `${base}/tools`, registration), 201);
    expect(created).toEqual({
      object: 'mcp_server',
      org_id: org.id,
      name: 'tools',
      url: 'https://tools.example.com/mcp',
      transport: 'streamable_http',
      credential: { header: 'Authorization', value_hint: '...wxyz' },
      tools: ['search', 'fetch'],
      key_ids: null,
      tool_key_ids: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    await json(await call('PUT', `${base}/alpha`, { url: 'https://alpha.example.com/mcp' }), 201);
    const listed = await json<{ data: { name: string }[] }>(await call('GET', base));
    expect(listed.data.map((server) => server.name)).toEqual(['alpha', 'tools']);
    expect(listed.data[0]).toMatchObject({ credential: null, tools: null });
    expect(await json(await call('GET', `${base}/tools`))).toEqual(created);

    const replaced = await json(await call('PUT', `${base}/tools`, { url: 'https://tools2.example.com/mcp', tools: null }));
    expect(replaced).toMatchObject({ url: 'https://tools2.example.com/mcp', credential: null, tools: null, created_at: created.created_at });

    expect(await json(await call('DELETE', `${base}/tools`))).toEqual({ object: 'mcp_server', org_id: org.id, name: 'tools', status: 'deleted' });
    expect(await json(await call('DELETE', `${base}/tools`), 404)).toMatchObject({ error: { type: 'not_found_error', param: 'name' } });
    expect(await json(await call('GET', `${base}/tools`), 404)).toMatchObject({ error: { type: 'not_found_error', param: 'name' } });
    for (const answer of [created, listed, replaced]) expect(JSON.stringify(answer)).not.toContain('mcp-upstream-secret');
  });

  it('seals the credential at rest under SVC_ENCRYPTION_KEY', async () => {
    const org = await newOrg();
    await json(await call('PUT', `/v1/admin/orgs/${org.id}/mcp-servers/sealed`, registration), 201);
    const row = await app.runtime.db.mcpServers.get(org.id, 'sealed');
    expect(row?.credential).toMatchObject({ header: 'Authorization', last4: 'wxyz', keyVersion: parseEncryptionKey(encryptionKey).id });
    expect(Buffer.from(row?.credential?.ciphertext ?? []).toString('utf8')).not.toContain('mcp-upstream-secret');
    const [target] = await app.runtime.mcp.connections(org.id, 'any-key');
    expect(target?.headers()).toEqual({ Authorization: secret });
  });

  it('limits a server to some of the organisation’s keys, refusing ids that are not its keys', async () => {
    const org = await newOrg();
    const other = await newOrg();
    const mine = await app.runtime.authenticator.issue({ orgId: org.id, scopes: ['inference:chat'] });
    const theirs = await app.runtime.authenticator.issue({ orgId: other.id, scopes: ['inference:chat'] });
    const path = `/v1/admin/orgs/${org.id}/mcp-servers/narrow`;
    expect(await json(await call('PUT', path, { ...registration, key_ids: [mine.record.id, theirs.record.id] }), 400)).toMatchObject({ error: { param: 'key_ids.1' } });
    expect(await json(await call('PUT', path, { ...registration, key_ids: ['key_does_not_exist'] }), 400)).toMatchObject({ error: { param: 'key_ids.0' } });
    expect(await json(await call('PUT', path, { ...registration, key_ids: [mine.record.id] }), 201)).toMatchObject({ key_ids: [mine.record.id] });
    expect((await app.runtime.mcp.connections(org.id, mine.record.id)).map((target) => target.name)).toEqual(['narrow']);
    expect(await app.runtime.mcp.connections(org.id, 'another-key')).toEqual([]);
  });

  it('limits single tools to some keys (tool_key_ids), stored and applied per key; rules that could never apply are refused, naming the field', async () => {
    const org = await newOrg();
    const other = await newOrg();
    const [admin, plain] = await Promise.all([0, 1].map(() => app.runtime.authenticator.issue({ orgId: org.id, scopes: ['inference:chat'] })));
    const theirs = await app.runtime.authenticator.issue({ orgId: other.id, scopes: ['inference:chat'] });
    const path = `/v1/admin/orgs/${org.id}/mcp-servers/guarded`;
    const cases: [unknown, string][] = [
      [{ ...registration, tool_key_ids: { 'bad tool': [admin!.record.id] } }, 'tool_key_ids.bad tool'],
      [{ ...registration, tool_key_ids: { fetch: 'all' } }, 'tool_key_ids.fetch'],
      [{ ...registration, tool_key_ids: { delete: [admin!.record.id] } }, 'tool_key_ids.delete'],
      [{ ...registration, tool_key_ids: { fetch: [admin!.record.id, theirs.record.id] } }, 'tool_key_ids.fetch.1'],
      [{ ...registration, key_ids: [plain!.record.id], tool_key_ids: { fetch: [admin!.record.id] } }, 'tool_key_ids.fetch.0'],
      [{ ...registration, tool_key_ids: [] }, 'tool_key_ids'],
    ];
    for (const [body, param] of cases) {
      expect(await json(await call('PUT', path, body), 400), JSON.stringify(body)).toMatchObject({ error: { type: 'invalid_request_error', param } });
    }
    const created = await json(await call('PUT', path, { ...registration, tool_key_ids: { fetch: [admin!.record.id] } }), 201);
    expect(created).toMatchObject({ tools: ['search', 'fetch'], key_ids: null, tool_key_ids: { fetch: [admin!.record.id] } });
    expect(await json(await call('GET', path))).toEqual(created);
    expect((await app.runtime.db.mcpServers.get(org.id, 'guarded'))?.toolKeyIds).toEqual({ fetch: [admin!.record.id] });
    const [forPlain] = await app.runtime.mcp.connections(org.id, plain!.record.id);
    const [forAdmin] = await app.runtime.mcp.connections(org.id, admin!.record.id);
    expect([...forPlain!.withheld]).toEqual(['fetch']);
    expect([...forAdmin!.withheld]).toEqual([]);
    expect(await json(await call('PUT', path, { ...registration, tool_key_ids: {} }))).toMatchObject({ tool_key_ids: null });
  });

  it('refuses loopback, link-local and private URLs by default (400 mcp_url_refused)', async () => {
    const org = await newOrg();
    for (const url of ['http://127.0.0.1:9000/mcp', 'http://localhost/mcp', 'http://169.254.169.254/latest/meta-data', 'http://10.0.0.8/mcp', 'http://[::1]/mcp', 'http://192.168.1.20/mcp']) {
      const refused = await json(await call('PUT', `/v1/admin/orgs/${org.id}/mcp-servers/private`, { url }), 400);
      expect(refused, url).toMatchObject({ error: { type: 'invalid_request_error', code: 'mcp_url_refused', param: 'url' } });
      expect(JSON.stringify(refused)).toContain('SVC_MCP_ALLOW_PRIVATE_URLS');
    }
    expect(await app.runtime.db.mcpServers.list(org.id)).toEqual([]);
  });

  it('rejects unknown fields, bad names, headers and tool names, naming the field', async () => {
    const org = await newOrg();
    const path = `/v1/admin/orgs/${org.id}/mcp-servers/tools`;
    const cases: [unknown, string][] = [
      [{ ...registration, tool: ['x'] }, 'tool'],
      [{ ...registration, credential: { header: 'Authorization', value: 'x', extra: 1 } }, 'credential.extra'],
      [{ ...registration, credential: { header: 'Bad Header', value: 'x' } }, 'credential.header'],
      [{ ...registration, credential: { header: 'Mcp-Session-Id', value: 'x' } }, 'credential.header'],
      [{ ...registration, transport: 'stdio' }, 'transport'],
      [{ ...registration, tools: ['ok', 'not ok'] }, 'tools.1'],
      [{ ...registration, url: 'ftp://example.com' }, 'url'],
      [{ tools: null }, 'url'],
    ];
    for (const [body, param] of cases) {
      expect(await json(await call('PUT', path, body), 400), JSON.stringify(body)).toMatchObject({ error: { type: 'invalid_request_error', param } });
    }
    expect(await json(await call('PUT', `/v1/admin/orgs/${org.id}/mcp-servers/has__underscores`, registration), 400)).toMatchObject({ error: { param: 'name' } });
    expect(await json(await call('PUT', `/v1/admin/orgs/${randomUUID()}/mcp-servers/tools`, registration), 404)).toMatchObject({ error: { param: 'id' } });
  });
});
