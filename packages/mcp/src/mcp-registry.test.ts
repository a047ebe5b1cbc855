import { CredentialCipher } from '@svc/byok';
import { createMemoryKv } from '@svc/kv';
import { describe, expect, it } from 'vitest';
import { McpRegistry, type McpServerStore, type StoredMcpServer, toolAccess } from './mcp-registry.js';
import { McpUrlRefusedError } from './url-check.js';

/** The store contract in memory (@svc/db's repository passes the same through its conformance suite). */
function memoryStore(): McpServerStore & { rows: Map<string, StoredMcpServer> } {
  const rows = new Map<string, StoredMcpServer>();
  const key = (orgId: string, name: string) => `${orgId}/${name}`;
  return {
    rows,
    list: async (orgId) => [...rows.entries()].filter(([id]) => id.startsWith(`${orgId}/`)).map(([, row]) => row),
    get: async (orgId, name) => rows.get(key(orgId, name)),
    put: async (orgId, server) => {
      const created = !rows.has(key(orgId, server.name));
      const row = { ...server, createdAt: new Date(0), updatedAt: new Date() };
      rows.set(key(orgId, server.name), row);
      return { server: row, created };
    },
    delete: async (orgId, name) => rows.delete(key(orgId, name)),
  };
}

const cipher = new CredentialCipher({ id: 'k-test', key: Buffer.alloc(32, 3) });
const registration = { name: 'tools', url: 'https://tools.example.com/mcp', transport: 'streamable_http' as const, credential: { header: 'X-Api-Key', value: 'secret-value-9876' }, tools: null, keyIds: null, toolKeyIds: null };

describe('McpRegistry', () => {
  it('seals the credential, shows only its header and last 4, and opens it for the gateway', async () => {
    const store = memoryStore();
    const registry = new McpRegistry({ store, cipher, policy: { allowPrivate: false } });
    const { server, created } = await registry.put('org-a', registration);
    expect(created).toBe(true);
    expect(server.credential).toEqual({ header: 'X-Api-Key', last4: '9876' });
    expect(JSON.stringify(await registry.list('org-a'))).not.toContain('secret-value');
    expect(Buffer.from(store.rows.get('org-a/tools')?.credential?.ciphertext ?? []).toString()).not.toContain('secret-value');
    const [target] = await registry.connections('org-a', 'key-1');
    expect(target?.headers()).toEqual({ 'X-Api-Key': 'secret-value-9876' });
  });

  it('keeps the sealed credential on an unchanged save, and has none for a new server', async () => {
    const store = memoryStore();
    const registry = new McpRegistry({ store, cipher, policy: { allowPrivate: false } });
    await registry.put('org-a', registration);
    const { server } = await registry.put('org-a', { ...registration, url: 'https://tools.example.com/v2', credential: 'unchanged' });
    expect(server).toMatchObject({ url: 'https://tools.example.com/v2', credential: { header: 'X-Api-Key', last4: '9876' } });
    expect((await registry.connections('org-a', 'key-1'))[0]?.headers()).toEqual({ 'X-Api-Key': 'secret-value-9876' });
    expect((await registry.put('org-a', { ...registration, name: 'fresh', credential: 'unchanged' })).server.credential).toBeNull();
  });

  it('binds the sealed credential to its organisation and server name', async () => {
    const store = memoryStore();
    const registry = new McpRegistry({ store, cipher, policy: { allowPrivate: false } });
    await registry.put('org-a', registration);
    const copied = store.rows.get('org-a/tools')!;
    store.rows.set('org-b/tools', copied);
    store.rows.set('org-a/other', { ...copied, name: 'other' });
    const [elsewhere] = await registry.connections('org-b', 'key-1');
    expect(() => elsewhere?.headers()).toThrow(/failed authentication/);
    const renamed = (await registry.connections('org-a', 'key-1')).find((target) => target.name === 'other');
    expect(() => renamed?.headers()).toThrow(/failed authentication/);
  });

  it('gives the gateway only the servers the calling key may reach', async () => {
    const registry = new McpRegistry({ store: memoryStore(), cipher, policy: { allowPrivate: false } });
    await registry.put('org-a', { ...registration, name: 'open' });
    await registry.put('org-a', { ...registration, name: 'narrow', keyIds: ['key-2'] });
    expect((await registry.connections('org-a', 'key-1')).map((target) => target.name)).toEqual(['open']);
    expect((await registry.connections('org-a', 'key-2')).map((target) => target.name).sort()).toEqual(['narrow', 'open']);
    expect((await registry.get('org-a', 'narrow'))?.keyIds).toEqual(['key-2']);
  });

  it('withholds from a key the tools its organisation allows to other keys only', async () => {
    const registry = new McpRegistry({ store: memoryStore(), cipher, policy: { allowPrivate: false } });
    await registry.put('org-a', { ...registration, tools: ['query', 'delete', 'audit'], toolKeyIds: { delete: ['key-admin'], audit: [] } });
    const [plain] = await registry.connections('org-a', 'key-1');
    const [admin] = await registry.connections('org-a', 'key-admin');
    expect(['query', 'delete', 'audit', 'other'].map((tool) => toolAccess(plain!, tool))).toEqual(['exposed', 'withheld', 'withheld', 'hidden']);
    expect(['query', 'delete', 'audit'].map((tool) => toolAccess(admin!, tool))).toEqual(['exposed', 'exposed', 'withheld']);
  });

  it('holds a request that names a registered URL to the registration’s rules', async () => {
    const registry = new McpRegistry({ store: memoryStore(), cipher, policy: { allowPrivate: false } });
    await registry.put('org-a', { ...registration, keyIds: ['key-1', 'key-2'], toolKeyIds: { delete: ['key-2'] } });
    const seen = await registry.registeredUrl('org-a', 'key-1', 'HTTPS://Tools.Example.com:443/mcp');
    expect(seen?.reachable).toBe(true);
    expect(toolAccess(seen!.target, 'delete')).toBe('withheld');
    expect((await registry.registeredUrl('org-a', 'key-3', 'https://tools.example.com/mcp'))?.reachable).toBe(false);
    expect(await registry.registeredUrl('org-a', 'key-1', 'https://elsewhere.example.com/mcp')).toBeUndefined();
  });

  it('refuses a private URL unless the operator allows it', async () => {
    const strict = new McpRegistry({ store: memoryStore(), cipher, policy: { allowPrivate: false } });
    await expect(strict.put('org-a', { ...registration, url: 'http://127.0.0.1:3000/mcp' })).rejects.toThrow(McpUrlRefusedError);
    const open = new McpRegistry({ store: memoryStore(), cipher, policy: { allowPrivate: true } });
    expect((await open.put('org-a', { ...registration, url: 'http://127.0.0.1:3000/mcp' })).server.url).toBe('http://127.0.0.1:3000/mcp');
  });

  it('serves the dialled servers from its cache, dropped by a change here or on another instance sharing the bus', async () => {
    const store = memoryStore();
    let reads = 0;
    const list = (orgId: string) => {
      reads += 1;
      return store.list(orgId);
    };
    const bus = createMemoryKv();
    const registry = () => new McpRegistry({ store: { ...store, list }, cipher, policy: { allowPrivate: false }, bus });
    const [here, there] = [registry(), registry()];
    await Promise.all([here.start(), there.start()]);
    await here.put('org-1', registration);
    expect((await there.connections('org-1', 'key-1')).map((target) => target.name)).toEqual(['tools']);
    await there.connections('org-1', 'key-1');
    expect(reads).toBe(1);
    await here.put('org-1', { ...registration, name: 'second' });
    expect((await there.connections('org-1', 'key-1')).map((target) => target.name)).toEqual(['tools', 'second']);
    await here.delete('org-1', 'tools');
    expect((await there.connections('org-1', 'key-1')).map((target) => target.name)).toEqual(['second']);
    await Promise.all([here.stop(), there.stop(), bus.close()]);
  });
});
