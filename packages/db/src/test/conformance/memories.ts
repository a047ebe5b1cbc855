import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { createTestOrg, type GetDb } from '../fixtures.js';

export function memoryConformance(getDb: GetDb): void {
  it('stores memories with entities and lists them newest first, per conversation when asked', async () => {
    const db = getDb();
    const org = await createTestOrg(db);
    const id = randomUUID();
    const first = await db.memories.insert(org.id, {
      id,
      conversationId: 'conv-1',
      role: 'user',
      text: 'Ada works at Acme',
      entities: [{ type: 'person', value: 'Ada' }],
    });
    expect(first).toMatchObject({ id, orgId: org.id, conversationId: 'conv-1', role: 'user', entities: [{ type: 'person', value: 'Ada' }] });
    expect(first.createdAt).toBeInstanceOf(Date);
    const second = await db.memories.insert(org.id, { role: 'assistant', text: 'noted' });
    expect(second.conversationId).toBeNull();
    expect(second.entities).toEqual([]);

    expect((await db.memories.listRecent(org.id)).map((m) => m.text)).toEqual(['noted', 'Ada works at Acme']);
    expect((await db.memories.listRecent(org.id, { conversationId: 'conv-1' })).map((m) => m.id)).toEqual([id]);
    expect(await db.memories.listRecent(org.id, { limit: 1 })).toHaveLength(1);
    expect((await db.memories.getMany(org.id, [id, second.id, randomUUID(), 'not-a-uuid'])).map((m) => m.id).sort()).toEqual(
      [id, second.id].sort(),
    );
  });

  it('never returns or deletes another organisation’s memories', async () => {
    const db = getDb();
    const owner = await createTestOrg(db);
    const other = await createTestOrg(db);
    const memory = await db.memories.insert(owner.id, { role: 'user', text: 'secret plan' });
    expect(await db.memories.getMany(other.id, [memory.id])).toEqual([]);
    expect(await db.memories.listRecent(other.id)).toEqual([]);
    expect(await db.memories.deleteByOrg(other.id)).toBe(0);
    expect(await db.memories.listRecent('not-a-uuid')).toEqual([]);
    expect(await db.memories.deleteByOrg(owner.id)).toBe(1);
    expect(await db.memories.listRecent(owner.id)).toEqual([]);
  });

  it('writes a batch of memories of several organisations in one call, skipping ids already stored', async () => {
    const db = getDb();
    const a = await createTestOrg(db);
    const b = await createTestOrg(db);
    const at = new Date(Date.now() - 60_000);
    const rows = [
      { id: randomUUID(), orgId: a.id, conversationId: 'c', role: 'user', text: 'Ada lives in Lisbon', entities: [{ type: 'place', value: 'Lisbon' }], createdAt: at },
      { id: randomUUID(), orgId: a.id, role: 'assistant', text: 'noted', createdAt: at },
      { id: randomUUID(), orgId: b.id, role: 'user', text: 'other org', createdAt: at },
    ];
    expect(await db.memories.insertMany(rows)).toBe(3);
    expect(await db.memories.insertMany([rows[0]!])).toBe(0);
    expect(await db.memories.insertMany([])).toBe(0);
    const stored = await db.memories.getMany(a.id, rows.map((row) => row.id));
    expect(stored.map((m) => m.text).sort()).toEqual(['Ada lives in Lisbon', 'noted']);
    expect(stored.find((m) => m.id === rows[0]!.id)).toMatchObject({ conversationId: 'c', entities: [{ type: 'place', value: 'Lisbon' }], createdAt: at });
    await expect(db.memories.insertMany([{ id: randomUUID(), orgId: randomUUID(), role: 'user', text: 'x', createdAt: at }])).rejects.toThrow();
  });

  it('rejects a memory of an unknown organisation', async () => {
    await expect(getDb().memories.insert(randomUUID(), { role: 'user', text: 'x' })).rejects.toThrow();
  });
}
