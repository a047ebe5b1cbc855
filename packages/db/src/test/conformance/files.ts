import { createHash, randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import type { Database } from '../../database.js';
import { FILE_PART_BYTES } from '../../repositories/file-parts.js';
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

/** Every part of a file, read in order and joined; undefined when it has none to serve. */
export async function readParts(db: Database, orgId: string, id: string, now?: Date): Promise<Uint8Array | undefined> {
  const parts: Uint8Array[] = [];
  for (let part = await db.files.part(orgId, id, 0, now); part; part = await db.files.part(orgId, id, parts.length, now)) parts.push(part);
  if (parts.length === 0) return (await db.files.get(orgId, id, now)) ? new Uint8Array(0) : undefined;
  return new Uint8Array(Buffer.concat(parts));
}

/** A digest to compare long byte arrays by (deep equality walks them element by element). */
const digest = (bytes: Uint8Array | undefined) => bytes && createHash('sha256').update(bytes).digest('hex');

/** `length` bytes that differ from part to part. */
const patterned = (length: number) => Uint8Array.from({ length }, (_, i) => (i * 7 + Math.floor(i / FILE_PART_BYTES)) % 251);

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
    expect(await readParts(db, owner.id, file.id)).toEqual(bytes);
    expect(await db.files.get(other.id, file.id)).toBeUndefined();
    expect(await readParts(db, other.id, file.id)).toBeUndefined();
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
    expect(await readParts(db, owner.id, file.id)).toBeUndefined();
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
    expect(await readParts(db, org.id, expired.id, now)).toBeUndefined();
    expect((await db.files.list(org.id, { limit: 10, order: 'desc' }, now)).data.map((f) => f.id)).toEqual([live.id]);
    expect(await db.files.deleteExpired(now)).toBeGreaterThanOrEqual(1);
    expect(await db.files.get(org.id, expired.id, new Date(now.getTime() - DAY_MS))).toBeUndefined();
    expect(await db.files.get(org.id, live.id, now)).toBeDefined();
  });
}

export function filePartConformance(getDb: GetDb): void {
  it('keeps a file longer than a part in parts of FILE_PART_BYTES, the last shorter', async () => {
    const db = getDb();
    const org = await createTestOrg(db);
    const bytes = patterned(2 * FILE_PART_BYTES + 1000);
    const file = newFile(org.id, { content: bytes });
    expect((await db.files.create(file)).bytes).toBe(bytes.byteLength);
    expect((await db.files.part(org.id, file.id, 0))?.byteLength).toBe(FILE_PART_BYTES);
    expect(digest(await db.files.part(org.id, file.id, 2))).toBe(digest(bytes.subarray(2 * FILE_PART_BYTES)));
    expect(await db.files.part(org.id, file.id, 3)).toBeUndefined();
    expect(digest(await readParts(db, org.id, file.id))).toBe(digest(bytes));
    const other = await createTestOrg(db);
    expect(await db.files.part(other.id, file.id, 1)).toBeUndefined();
    const empty = newFile(org.id, { content: new Uint8Array(0) });
    expect((await db.files.create(empty)).bytes).toBe(0);
    expect(await db.files.part(org.id, empty.id, 0)).toBeUndefined();
    expect(await db.files.get(org.id, empty.id)).toBeDefined();
  });

  it('serves a file being written only once it is complete, with what completion says', async () => {
    const db = getDb();
    const org = await createTestOrg(db);
    const { content: _content, ...file } = newFile(org.id, { purpose: 'pending' });
    await db.files.begin(file);
    await db.files.writePart(org.id, file.id, 0, new Uint8Array([1, 2]));
    await db.files.writePart(org.id, file.id, 1, new Uint8Array([3]));
    expect(await db.files.get(org.id, file.id)).toBeUndefined();
    expect(await db.files.part(org.id, file.id, 0)).toBeUndefined();
    expect((await db.files.list(org.id, { limit: 10, order: 'desc' })).data).toEqual([]);
    expect(await db.files.delete(org.id, file.id)).toBe(false);
    const expiresAt = new Date(Date.now() + 3_600_000);
    expect(await db.files.complete(org.id, file.id, { bytes: 3, purpose: 'batch', expiresAt })).toEqual({ ...file, purpose: 'batch', expiresAt, bytes: 3 });
    expect(await readParts(db, org.id, file.id)).toEqual(new Uint8Array([1, 2, 3]));
    // Complete once: a complete file is neither completed again nor discarded.
    expect(await db.files.complete(org.id, file.id, { bytes: 1 })).toBeUndefined();
    await db.files.discard(org.id, file.id);
    expect((await db.files.get(org.id, file.id))?.bytes).toBe(3);
  });

  it('discards a file being written with its parts, never another organisation’s', async () => {
    const db = getDb();
    const org = await createTestOrg(db);
    const other = await createTestOrg(db);
    const { content: _content, ...file } = newFile(org.id);
    await db.files.begin(file);
    await db.files.writePart(org.id, file.id, 0, new Uint8Array([1]));
    await db.files.discard(other.id, file.id);
    await db.files.discard(org.id, file.id);
    expect(await db.files.complete(org.id, file.id, { bytes: 1 })).toBeUndefined();
    await expect(db.files.writePart(org.id, file.id, 1, new Uint8Array([2]))).rejects.toThrow();
    // The parts went with it: the same id begins again from part 0.
    await db.files.begin(file);
    await db.files.writePart(org.id, file.id, 0, new Uint8Array([9]));
    await db.files.complete(org.id, file.id, { bytes: 1 });
    expect(await readParts(db, org.id, file.id)).toEqual(new Uint8Array([9]));
  });

  it('deletes and sweeps a file with its parts, and sweeps an upload abandoned a day ago', async () => {
    const db = getDb();
    const org = await createTestOrg(db);
    const now = new Date();
    const deleted = newFile(org.id, { content: patterned(FILE_PART_BYTES + 1) });
    await db.files.create(deleted);
    expect(await db.files.delete(org.id, deleted.id)).toBe(true);
    const { content: _a, ...abandoned } = newFile(org.id, { createdAt: new Date(now.getTime() - DAY_MS - 1000) });
    const { content: _b, ...writing } = newFile(org.id, { createdAt: new Date(now.getTime() - 60_000) });
    await db.files.begin(abandoned);
    await db.files.begin(writing);
    await db.files.writePart(org.id, abandoned.id, 0, new Uint8Array([1]));
    await db.files.writePart(org.id, writing.id, 0, new Uint8Array([2]));
    expect(await db.files.deleteExpired(now)).toBeGreaterThanOrEqual(1);
    expect(await db.files.complete(org.id, abandoned.id, { bytes: 1 })).toBeUndefined();
    expect((await db.files.complete(org.id, writing.id, { bytes: 1 }))?.bytes).toBe(1);
    // No part outlived its file: the ids begin again from part 0.
    for (const file of [deleted, { ...abandoned, content: new Uint8Array(0) }]) {
      await db.files.begin({ ...file, createdAt: now });
      await db.files.writePart(org.id, file.id, 0, new Uint8Array([7]));
      await db.files.complete(org.id, file.id, { bytes: 1 });
      expect(await readParts(db, org.id, file.id)).toEqual(new Uint8Array([7]));
    }
  });
}
