import { expect, it } from 'vitest';
import type { GetDb } from '../fixtures.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function storeIdentityConformance(getDb: GetDb): void {
  it('names the store by one uuid, the same at every read', async () => {
    const db = getDb();
    const first = await db.storeIdentity.id();
    expect(first).toMatch(UUID);
    const again = await Promise.all([db.storeIdentity.id(), db.storeIdentity.id(), db.storeIdentity.id()]);
    expect(again).toEqual([first, first, first]);
  });
}
