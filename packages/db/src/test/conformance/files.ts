import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import type { NewFile } from '../../repositories/files.js';
import { createTestOrg, type GetDb } from '../fixtures.js';

const DAY_MS = 86_400_000;

function newFile(orgId: string, overrides: Partial<NewFile> = {}): NewFile {
  return {
    id: `file-${randomUUID().replaceAll('-', '')}`,
    orgId,
    filename: 'input.jsonl',
    purpose: 'batch',
    content: new TextEncoder().encode('{"custom_id":"a"}\n'),
    createdAt: new Date(Date.now() - 1000),
    expiresAt: new Date(Date.now() + DAY_MS),
    ...overrides,
  };
}

export function fileConformance(getDb: GetDb): void {
  it('keeps a file and its bytes, for its organisation only', async () => {
    const db = getDb();
    const owner = await createTestOrg(db);
    const other = await createTestOrg(db);
    const bytes = new Uint8Array([0, 1, 2, 255, 10, 13]);
    const file = newFile(owner.id, { content: bytes, filename: 'raw.bin' });
    const kept = await db.files.create(file);
    const { content: _content, ...meta } = file;
    expect(kept).toEqual({ ...meta, bytes: 6 });
    expect(await db.files.get(owner.id, file.id)).toEqual(kept);
    expect(await db.files.content(owner.id, file.id)).toEqual(bytes);
    expect(await db.files.get(other.id, file.id)).toBeUndefined();
    expect(await db.files.content(other.id, file.id)).toBeUndefined();
    expect(await db.files.get('not-a-uuid', file.id)).toBeUndefined();
  });

  it('lists newest or oldest first by pages, by purpose', async () => {
    const db = getDb();
    const org = await createTestOrg(db);
    const base = Date.now() - 10_000;
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const file = newFile(org.id, { createdAt: new Date(base + i * 1000), purpose: i === 2 ? 'vision' : 'batch' });
      await db.files.create(file);
      ids.push(file.id);
    }
    const first = await db.files.list(org.id, { limit: 2, order: 'desc' });
    expect(first.data.map((f) => f.id)).toEqual([ids[4], ids[3]]);
    expect(first.hasMore).toBe(true);
    const second = await db.files.list(org.id, { limit: 2, order: 'desc', after: ids[3] });
    expect(second.data.map((f) => f.id)).toEqual([ids[2], ids[1]]);
    const last = await db.files.list(org.id, { limit: 2, order: 'desc', after: ids[1] });
    expect(last).toEqual({ data: [expect.objectContaining({ id: ids[0] })], hasMore: false });
    const asc = await db.files.list(org.id, { limit: 10, order: 'asc', purpose: 'batch' });
    expect(asc.data.map((f) => f.id)).toEqual([ids[0], ids[1], ids[3], ids[4]]);
    expect((await db.files.list(org.id, { limit: 10, order: 'asc', after: 'file-unknown' })).data).toEqual([]);
    const other = await createTestOrg(db);
    expect((await db.files.list(other.id, { limit: 10, order: 'desc' })).data).toEqual([]);
  });

  it('deletes a file once, never another organisation’s', async () => {
    const db = getDb();
    const owner = await createTestOrg(db);
    const other = await createTestOrg(db);
    const file = newFile(owner.id);
    await db.files.create(file);
    expect(await db.files.delete(other.id, file.id)).toBe(false);
    expect(await db.files.delete(owner.id, file.id)).toBe(true);
    expect(await db.files.delete(owner.id, file.id)).toBe(false);
    expect(await db.files.content(owner.id, file.id)).toBeUndefined();
  });

  it('never serves an expired file, and sweeps it', async () => {
    const db = getDb();
    const org = await createTestOrg(db);
    const now = new Date();
    const expired = newFile(org.id, { expiresAt: new Date(now.getTime() - 1) });
    const live = newFile(org.id);
    await db.files.create(expired);
    await db.files.create(live);
    expect(await db.files.get(org.id, expired.id, now)).toBeUndefined();
    expect(await db.files.content(org.id, expired.id, now)).toBeUndefined();
    expect((await db.files.list(org.id, { limit: 10, order: 'desc' }, now)).data.map((f) => f.id)).toEqual([live.id]);
    expect(await db.files.deleteExpired(now)).toBeGreaterThanOrEqual(1);
    expect(await db.files.get(org.id, expired.id, new Date(now.getTime() - DAY_MS))).toBeUndefined();
    expect(await db.files.get(org.id, live.id, now)).toBeDefined();
  });
}
