import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { type GetDb, nextClockTick } from '../fixtures.js';

/** A model id no other test (nor a rerun) uses: the table is global to the deployment. */
const modelId = () => `conformance/${randomUUID()}`;

export function storedModelConformance(getDb: GetDb): void {
  it('stores, replaces (keeping createdAt), lists by id and deletes entries', async () => {
    const db = getDb();
    const [a, b] = [modelId(), modelId()].sort();
    const first = await db.storedModels.put(b!, { input_price_per_mtok: 1, capabilities: ['tools'], retires_at: '2030-01-01' }, 'key_admin');
    expect(first.created).toBe(true);
    expect(first.record).toMatchObject({ id: b, entry: { input_price_per_mtok: 1, capabilities: ['tools'], retires_at: '2030-01-01' }, updatedBy: 'key_admin' });
    await db.storedModels.put(a!, { tier: 'T3' }, null);
    const listed = (await db.storedModels.list()).map((record) => record.id).filter((id) => id === a || id === b);
    expect(listed).toEqual([a, b]);

    await nextClockTick();
    const replaced = await db.storedModels.put(b!, { output_price_per_mtok: 2 }, 'key_other');
    expect(replaced.created).toBe(false);
    expect(replaced.record).toMatchObject({ entry: { output_price_per_mtok: 2 }, updatedBy: 'key_other', createdAt: first.record.createdAt });
    expect(replaced.record.updatedAt.getTime()).toBeGreaterThan(first.record.updatedAt.getTime());
    expect(await db.storedModels.get(b!)).toEqual(replaced.record);

    expect(await db.storedModels.delete(b!)).toBe(true);
    expect(await db.storedModels.delete(b!)).toBe(false);
    expect(await db.storedModels.get(b!)).toBeUndefined();
    expect(await db.storedModels.delete(a!)).toBe(true);
  });
}
