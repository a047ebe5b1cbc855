import { expect, it } from 'vitest';
import { createTestOrg, type GetDb } from '../fixtures.js';

export function settingsConformance(getDb: GetDb): void {
  it('starts empty and merges shallowly', async () => {
    const db = getDb();
    const org = await createTestOrg(db);
    expect(await db.settings.get(org.id)).toEqual({});
    expect(await db.settings.merge(org.id, { cache: { ttl: 60 }, memory: true })).toEqual({
      cache: { ttl: 60 },
      memory: true,
    });
    const merged = await db.settings.merge(org.id, { cache: { enabled: false }, mode: 'full' });
    expect(merged).toEqual({ cache: { enabled: false }, memory: true, mode: 'full' });
    expect(await db.settings.get(org.id)).toEqual(merged);
  });

  it('keeps every key under concurrent merges', async () => {
    const db = getDb();
    const org = await createTestOrg(db);
    await Promise.all(['a', 'b', 'c', 'd'].map((key) => db.settings.merge(org.id, { [key]: true })));
    expect(await db.settings.get(org.id)).toEqual({ a: true, b: true, c: true, d: true });
  });
}
