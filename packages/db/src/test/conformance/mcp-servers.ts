import { randomBytes, randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import type { McpServerCredential, NewMcpServer } from '../../repositories/mcp-servers.js';
import { createTestOrg, type GetDb } from '../fixtures.js';

/** A sealed header credential as the MCP module would write it (random bytes stand in for AES-GCM output). */
function credential(overrides: Partial<McpServerCredential> = {}): McpServerCredential {
  return { header: 'Authorization', ciphertext: randomBytes(40), iv: randomBytes(12), tag: randomBytes(16), keyVersion: 'k1', last4: 'wxyz', ...overrides };
}

function server(name: string, overrides: Partial<NewMcpServer> = {}): NewMcpServer {
  return { name, url: `https://${name}.example.com/mcp`, transport: 'streamable_http', credential: credential(), tools: null, keyIds: null, toolKeyIds: null, ...overrides };
}

const hex = (value: Uint8Array | undefined) => (value ? Buffer.from(value).toString('hex') : undefined);

export function mcpServerConformance(getDb: GetDb): void {
  it('registers, lists by name, replaces and deletes servers', async () => {
    const db = getDb();
    const org = await createTestOrg(db);
    expect(await db.mcpServers.list(org.id)).toEqual([]);

    const first = await db.mcpServers.put(org.id, server('search', { tools: ['query', 'fetch'], keyIds: ['key_a', 'key_b'] }));
    expect(first.created).toBe(true);
    expect(first.server).toMatchObject({ orgId: org.id, name: 'search', url: 'https://search.example.com/mcp', transport: 'streamable_http', tools: ['query', 'fetch'], keyIds: ['key_a', 'key_b'] });
    expect(first.server.credential).toMatchObject({ header: 'Authorization', keyVersion: 'k1', last4: 'wxyz' });
    expect(first.server.createdAt).toBeInstanceOf(Date);
    await db.mcpServers.put(org.id, server('alpha'));
    expect((await db.mcpServers.list(org.id)).map((entry) => entry.name)).toEqual(['alpha', 'search']);

    const replaced = await db.mcpServers.put(org.id, server('search', { url: 'https://other.example.com/mcp', credential: null, tools: null }));
    expect(replaced.created).toBe(false);
    expect(replaced.server).toMatchObject({ url: 'https://other.example.com/mcp', credential: null, tools: null, keyIds: null, createdAt: first.server.createdAt });
    expect(replaced.server.updatedAt.getTime()).toBeGreaterThanOrEqual(first.server.updatedAt.getTime());
    expect(await db.mcpServers.get(org.id, 'search')).toEqual(replaced.server);

    expect(await db.mcpServers.delete(org.id, 'search')).toBe(true);
    expect(await db.mcpServers.delete(org.id, 'search')).toBe(false);
    expect(await db.mcpServers.get(org.id, 'search')).toBeUndefined();
    expect((await db.mcpServers.list(org.id)).map((entry) => entry.name)).toEqual(['alpha']);
  });

  it('round-trips the sealed credential bytes exactly and an empty tool list', async () => {
    const db = getDb();
    const org = await createTestOrg(db);
    const sealed = credential({ header: 'X-Api-Key', ciphertext: Uint8Array.from([0, 255, 0, 1, 128, 92, 39, 34]), iv: new Uint8Array(12) });
    await db.mcpServers.put(org.id, server('bytes', { credential: sealed, tools: [] }));
    const stored = await db.mcpServers.get(org.id, 'bytes');
    expect(stored?.tools).toEqual([]);
    expect(stored?.credential?.header).toBe('X-Api-Key');
    expect(stored?.credential?.ciphertext).toBeInstanceOf(Uint8Array);
    expect([hex(stored?.credential?.ciphertext), hex(stored?.credential?.iv), hex(stored?.credential?.tag)]).toEqual([hex(sealed.ciphertext), hex(sealed.iv), hex(sealed.tag)]);
  });

  it('round-trips per-tool key lists, and stores an empty map as none', async () => {
    const db = getDb();
    const org = await createTestOrg(db);
    const toolKeyIds = { delete: ['key_admin'], 'read.all': ['key_a', 'key_b'], nobody: [] };
    await db.mcpServers.put(org.id, server('guarded', { keyIds: ['key_a', 'key_b', 'key_admin'], toolKeyIds }));
    expect((await db.mcpServers.get(org.id, 'guarded'))?.toolKeyIds).toEqual(toolKeyIds);
    await db.mcpServers.put(org.id, server('guarded', { toolKeyIds: {} }));
    expect((await db.mcpServers.get(org.id, 'guarded'))?.toolKeyIds).toBeNull();
  });

  it('keeps servers apart per organisation', async () => {
    const db = getDb();
    const [a, b] = await Promise.all([createTestOrg(db), createTestOrg(db)]);
    await db.mcpServers.put(a.id, server('shared'));
    expect(await db.mcpServers.list(b.id)).toEqual([]);
    expect(await db.mcpServers.get(b.id, 'shared')).toBeUndefined();
    expect(await db.mcpServers.delete(b.id, 'shared')).toBe(false);
    expect(await db.mcpServers.get(a.id, 'shared')).toBeDefined();
  });

  it('refuses writes for unknown organisations and reads malformed ids as empty', async () => {
    const db = getDb();
    await expect(db.mcpServers.put(randomUUID(), server('x'))).rejects.toThrow();
    expect(await db.mcpServers.list('not-a-uuid')).toEqual([]);
    expect(await db.mcpServers.get('not-a-uuid', 'x')).toBeUndefined();
    expect(await db.mcpServers.delete('not-a-uuid', 'x')).toBe(false);
  });

  it('keeps one row per name under concurrent puts', async () => {
    const db = getDb();
    const org = await createTestOrg(db);
    const urls = ['a', 'b', 'c', 'd'].map((host) => `https://${host}.example.com/mcp`);
    const results = await Promise.all(urls.map((url) => db.mcpServers.put(org.id, server('racy', { url }))));
    expect(results.filter((result) => result.created)).toHaveLength(1);
    const servers = await db.mcpServers.list(org.id);
    expect(servers).toHaveLength(1);
    expect(urls).toContain(servers[0]?.url);
  });
}
