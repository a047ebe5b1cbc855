import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { createTestOrg, type GetDb } from '../fixtures.js';

const weather = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };

export function toolGovernanceConformance(getDb: GetDb): void {
  it('registers, lists by name, replaces and deletes tools', async () => {
    const db = getDb();
    const org = await createTestOrg(db);
    expect(await db.toolGovernance.listTools(org.id)).toEqual([]);

    const first = await db.toolGovernance.putTool(org.id, { name: 'get_weather', description: 'Weather by city', parameters: weather });
    expect(first.created).toBe(true);
    expect(first.tool).toMatchObject({ orgId: org.id, name: 'get_weather', description: 'Weather by city', parameters: weather });
    expect(first.tool.createdAt).toBeInstanceOf(Date);
    await db.toolGovernance.putTool(org.id, { name: 'add', parameters: {} });
    expect((await db.toolGovernance.listTools(org.id)).map((tool) => tool.name)).toEqual(['add', 'get_weather']);

    const replaced = await db.toolGovernance.putTool(org.id, { name: 'get_weather', parameters: { type: 'object' } });
    expect(replaced.created).toBe(false);
    expect(replaced.tool).toMatchObject({ description: null, parameters: { type: 'object' }, createdAt: first.tool.createdAt });
    expect(replaced.tool.updatedAt.getTime()).toBeGreaterThanOrEqual(first.tool.updatedAt.getTime());
    expect(await db.toolGovernance.getTool(org.id, 'get_weather')).toEqual(replaced.tool);

    expect(await db.toolGovernance.deleteTool(org.id, 'get_weather')).toBe(true);
    expect(await db.toolGovernance.deleteTool(org.id, 'get_weather')).toBe(false);
    expect(await db.toolGovernance.getTool(org.id, 'get_weather')).toBeUndefined();
    expect((await db.toolGovernance.listTools(org.id)).map((tool) => tool.name)).toEqual(['add']);
  });

  it('keeps registries apart per organisation, names case-sensitive', async () => {
    const db = getDb();
    const [a, b] = await Promise.all([createTestOrg(db), createTestOrg(db)]);
    await db.toolGovernance.putTool(a.id, { name: 'search', parameters: weather });
    await db.toolGovernance.putTool(a.id, { name: 'Search', parameters: {} });
    expect(await db.toolGovernance.listTools(b.id)).toEqual([]);
    expect(await db.toolGovernance.getTool(b.id, 'search')).toBeUndefined();
    expect(await db.toolGovernance.deleteTool(b.id, 'search')).toBe(false);
    expect((await db.toolGovernance.listTools(a.id)).map((tool) => tool.name).sort()).toEqual(['Search', 'search']);
  });

  it('round-trips nested JSON Schema documents exactly', async () => {
    const db = getDb();
    const org = await createTestOrg(db);
    const schema = {
      type: 'object',
      properties: { items: { type: 'array', items: { anyOf: [{ type: 'string', pattern: '^\\d+$' }, { type: 'null' }] } }, 'ünï': { const: 'ø "q"' } },
      additionalProperties: false,
    };
    await db.toolGovernance.putTool(org.id, { name: 'nested', parameters: schema });
    expect((await db.toolGovernance.getTool(org.id, 'nested'))?.parameters).toEqual(schema);
  });

  it('stores a policy as a whole, defaults omitted fields, and replaces it', async () => {
    const db = getDb();
    const org = await createTestOrg(db);
    expect(await db.toolGovernance.getPolicy(org.id)).toBeUndefined();

    const stored = await db.toolGovernance.putPolicy(org.id, {
      enforceRegistry: true,
      blockedTools: ['shell_*', 'delete_user'],
      blockedArgumentPatterns: [{ tool: 'run_sql', argument: 'query', pattern: '\\bdrop\\s+table\\b' }, { tool: '*', pattern: 'rm -rf' }],
    });
    expect(stored).toMatchObject({
      orgId: org.id,
      enforceRegistry: true,
      requireSchemaMatch: false,
      blockedTools: ['shell_*', 'delete_user'],
      blockedArgumentPatterns: [{ tool: 'run_sql', argument: 'query', pattern: '\\bdrop\\s+table\\b' }, { tool: '*', pattern: 'rm -rf' }],
    });
    expect(await db.toolGovernance.getPolicy(org.id)).toEqual(stored);

    const replaced = await db.toolGovernance.putPolicy(org.id, { requireSchemaMatch: true });
    expect(replaced).toMatchObject({ enforceRegistry: false, requireSchemaMatch: true, blockedTools: [], blockedArgumentPatterns: [] });
    expect(await db.toolGovernance.getPolicy(org.id)).toEqual(replaced);
  });

  it('refuses writes for unknown organisations and reads malformed ids as empty', async () => {
    const db = getDb();
    await expect(db.toolGovernance.putTool(randomUUID(), { name: 'x', parameters: {} })).rejects.toThrow();
    await expect(db.toolGovernance.putPolicy(randomUUID(), { enforceRegistry: true })).rejects.toThrow();
    expect(await db.toolGovernance.listTools('not-a-uuid')).toEqual([]);
    expect(await db.toolGovernance.getTool('not-a-uuid', 'x')).toBeUndefined();
    expect(await db.toolGovernance.getPolicy('not-a-uuid')).toBeUndefined();
    expect(await db.toolGovernance.deleteTool('not-a-uuid', 'x')).toBe(false);
  });

  it('keeps one row per tool name under concurrent puts', async () => {
    const db = getDb();
    const org = await createTestOrg(db);
    const results = await Promise.all([1, 2, 3, 4].map((n) => db.toolGovernance.putTool(org.id, { name: 'race', parameters: { n } })));
    expect(results.filter((result) => result.created)).toHaveLength(1);
    const tools = await db.toolGovernance.listTools(org.id);
    expect(tools).toHaveLength(1);
    expect([1, 2, 3, 4]).toContain(tools[0]?.parameters.n);
  });
}
