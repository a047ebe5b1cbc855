import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { createTestOrg, type GetDb } from '../fixtures.js';

const row = (orgId: string, subject: string, text: string, at: Date, extra: Record<string, unknown> = {}) => ({
  id: randomUUID(),
  orgId,
  subject,
  role: 'user',
  text,
  createdAt: at,
  ...extra,
});

export function memoryConformance(getDb: GetDb): void {
  it('saves facts with their scope, slot, entities and vector, and lists them per scope newest first', async () => {
    const db = getDb();
    const org = await createTestOrg(db);
    const t0 = new Date(Date.now() - 60_000);
    const vector = new Float32Array([0.5, -0.25, 1]);
    const first = row(org.id, 'u:ada', 'Ada lives in Lisbon', t0, { slot: 'home', conversationId: 'c1', entities: [{ type: 'place', value: 'Lisbon' }], embedder: 'e1', embedding: vector });
    const second = row(org.id, 'u:ada', 'Ada likes tea', new Date(t0.getTime() + 1000));
    const other = row(org.id, 'u:bob', 'Bob lives in Oslo', new Date(t0.getTime() + 2000));
    expect(await db.memories.saveMany([first, second, other])).toBe(3);

    const [stored] = await db.memories.getMany(org.id, [first.id]);
    expect(stored).toMatchObject({ subject: 'u:ada', slot: 'home', conversationId: 'c1', embedder: 'e1', entities: [{ type: 'place', value: 'Lisbon' }] });
    expect([...stored!.embedding!]).toEqual([0.5, -0.25, 1]);
    expect(stored!.createdAt.getTime()).toBe(t0.getTime());

    expect((await db.memories.list(org.id, { subject: 'u:ada' })).map((m) => m.text)).toEqual(['Ada likes tea', 'Ada lives in Lisbon']);
    expect((await db.memories.list(org.id)).map((m) => m.subject)).toEqual(['u:bob', 'u:ada', 'u:ada']);
    expect((await db.memories.list(org.id, { conversationId: 'c1' })).map((m) => m.id)).toEqual([first.id]);
    const page1 = await db.memories.list(org.id, { limit: 2 });
    const page2 = await db.memories.list(org.id, { limit: 2, after: page1.at(-1)! });
    expect([...page1, ...page2].map((m) => m.text)).toEqual(['Bob lives in Oslo', 'Ada likes tea', 'Ada lives in Lisbon']);
    expect((await db.memories.listNewest(2)).map((m) => m.text)).toContain('Bob lives in Oslo');
  });

  it('updates a saved fact in place (a merge or a replacement), never across scopes', async () => {
    const db = getDb();
    const org = await createTestOrg(db);
    const at = new Date(Date.now() - 60_000);
    const fact = row(org.id, 'u:ada', 'Ada lives in Lisbon', at, { slot: 'home' });
    await db.memories.saveMany([fact]);
    const later = new Date(at.getTime() + 5000);
    await db.memories.saveMany([{ ...fact, text: 'Ada lives in Porto', updatedAt: later }]);
    const [moved] = await db.memories.getMany(org.id, [fact.id]);
    expect(moved).toMatchObject({ text: 'Ada lives in Porto', slot: 'home' });
    expect(moved!.updatedAt.getTime()).toBe(later.getTime());
    expect(moved!.createdAt.getTime()).toBe(at.getTime());
    // The same id offered under another scope changes nothing.
    await db.memories.saveMany([{ ...fact, subject: 'u:eve', text: 'hijacked' }]);
    expect((await db.memories.getMany(org.id, [fact.id]))[0]).toMatchObject({ subject: 'u:ada', text: 'Ada lives in Porto' });
  });

  it('keeps a superseded fact as history: never listed, fetched or loaded into an index again', async () => {
    const db = getDb();
    const org = await createTestOrg(db);
    const at = new Date(Date.now() - 60_000);
    const lisbon = row(org.id, 'u:ada', 'I live in Lisbon', at, { slot: 'home', embedder: 'e1', embedding: new Float32Array([1, 0]) });
    const berlin = row(org.id, 'u:ada', 'I moved to Berlin', new Date(at.getTime() + 1000), { slot: 'home' });
    await db.memories.saveMany([lisbon]);
    await db.memories.saveMany([berlin, { ...lisbon, supersededBy: berlin.id, embedding: null }]);
    expect((await db.memories.list(org.id, { subject: 'u:ada' })).map((m) => m.text)).toEqual(['I moved to Berlin']);
    expect(await db.memories.getMany(org.id, [lisbon.id])).toEqual([]);
    expect((await db.memories.listNewest(1_000)).map((m) => m.id)).not.toContain(lisbon.id);
    // Superseded without a vector (as the previous release wrote it): not loaded as history either.
    expect((await db.memories.listNewest(1_000, { history: true })).map((m) => m.id)).not.toContain(lisbon.id);
    expect((await db.memories.getMany(org.id, [berlin.id]))[0]).toMatchObject({ text: 'I moved to Berlin', supersededBy: null });
    // Forgetting the end user removes the history too.
    expect((await db.memories.deleteBySubject(org.id, 'u:ada')).sort()).toEqual([lisbon.id, berlin.id].sort());
  });

  it('lists superseded facts that keep their vector as history when asked, in the same order and bound', async () => {
    const db = getDb();
    const org = await createTestOrg(db);
    const at = new Date(Date.now() + 86_400_000);
    const vector = { embedder: 'e1', embedding: new Float32Array([1, 0]) };
    const lisbon = row(org.id, 'u:ada', 'I live in Lisbon', at, { slot: 'home', ...vector });
    const berlin = row(org.id, 'u:ada', 'I moved to Berlin', new Date(at.getTime() + 1000), { slot: 'home', ...vector });
    await db.memories.saveMany([berlin, { ...lisbon, supersededBy: berlin.id }]);
    expect((await db.memories.listNewest(1_000)).map((m) => m.id)).not.toContain(lisbon.id);
    const newest = await db.memories.listNewest(2, { history: true });
    expect(newest.map((m) => m.id)).toEqual([berlin.id, lisbon.id]);
    expect(newest[1]).toMatchObject({ supersededBy: berlin.id, embedder: 'e1' });
    expect([...newest[1]!.embedding!]).toEqual([1, 0]);
    expect((await db.memories.listNewest(1, { history: true })).map((m) => m.id)).toEqual([berlin.id]);
    await db.memories.deleteBySubject(org.id, 'u:ada');
  });

  it('deletes by id, by scope, by age and by organisation, never another organisation’s', async () => {
    const db = getDb();
    const owner = await createTestOrg(db);
    const other = await createTestOrg(db);
    const old = new Date(Date.now() - 100 * 86_400_000);
    const a = row(owner.id, 'u:ada', 'one', new Date());
    const b = row(owner.id, 'u:ada', 'two', new Date());
    const c = row(owner.id, 'k:key_1', 'three', new Date());
    const stale = row(owner.id, 'u:bob', 'stale', old);
    await db.memories.saveMany([a, b, c, stale]);
    expect(await db.memories.getMany(other.id, [a.id])).toEqual([]);
    expect(await db.memories.deleteMany(other.id, [a.id])).toEqual([]);
    expect(await db.memories.deleteBySubject(other.id, 'u:ada')).toEqual([]);
    expect(await db.memories.deleteMany(owner.id, [a.id, 'not-a-uuid'])).toEqual([a.id]);
    expect(await db.memories.deleteBySubject(owner.id, 'u:ada')).toEqual([b.id]);
    const expired = await db.memories.deleteOlderThan(new Date(Date.now() - 90 * 86_400_000));
    expect(expired.filter((e) => e.orgId === owner.id)).toEqual([{ id: stale.id, orgId: owner.id }]);
    expect(await db.memories.deleteByOrg(other.id)).toBe(0);
    expect(await db.memories.list('not-a-uuid')).toEqual([]);
    expect(await db.memories.deleteByOrg(owner.id)).toBe(1);
    expect(await db.memories.list(owner.id)).toEqual([]);
  });

  it('rejects a batch naming an unknown organisation', async () => {
    await expect(getDb().memories.saveMany([row(randomUUID(), 'u:x', 'x', new Date())])).rejects.toThrow();
  });
}
