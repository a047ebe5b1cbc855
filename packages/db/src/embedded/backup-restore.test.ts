import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '../create-db.js';
import { DataDirError } from '../data-dir-lock.js';
import type { Database } from '../database.js';
import { defaultMigrationsFolder } from '../migrate.js';
import { newKeyInput, newUsageEvent } from '../test/fixtures.js';
import { type ArchiveEntry, readArchive, writeArchive } from './archive.js';
import type { BackupFile } from './backup.js';
import { restoreDataDir } from './restore-data-dir.js';
import { StoreError } from './store-error.js';

let root: string;
let source: Database;
let backup: BackupFile;
let orgId: string;
const tricky = 'tab\there, newline\nthere, a backslash \\ and \u00e9\u4e2d\ud83d\ude80';

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'svc-backup-'));
  source = await createDb({ dataDir: join(root, 'source') });
  const org = await source.orgs.create({ name: 'acme', monthlyBudgetUsd: 12.5, tokenQuota: 9_000_000_000 });
  orgId = org.id;
  await source.keys.create(newKeyInput(org.id, { id: 'key_backup', scopes: ['inference:chat', 'admin'] }));
  await source.usage.insertMany(Array.from({ length: 300 }, (_, i) => newUsageEvent(org.id, { requestId: `req_${i}`, costUsd: i / 1000 })));
  await source.memories.saveMany([
    { id: randomUUID(), orgId: org.id, subject: 'u:ada', role: 'user', text: tricky, entities: [{ type: 'place', value: 'Lisbon' }], embedder: 'e', embedding: new Float32Array([0.5, -1, 3.25]), createdAt: new Date() },
  ]);
  await source.settings.merge(org.id, { note: tricky, nested: { list: [1, null, 'x'] } });
  // Writes arrive while the backup runs: it holds one snapshot, whole rows or none.
  const during = source.usage.insertMany(Array.from({ length: 50 }, (_, i) => newUsageEvent(org.id, { requestId: `req_during_${i}` })));
  backup = await source.backup();
  await during;
}, 120_000);

afterAll(async () => {
  await backup?.discard();
  await source?.close();
  await rm(root, { recursive: true, force: true });
});

async function readRestored(dataDir: string) {
  const db = await createDb({ dataDir });
  try {
    const [memory] = await db.memories.list(orgId);
    return {
      org: await db.orgs.get(orgId),
      key: await db.keys.get('key_backup'),
      rows: (await db.usage.listByOrg(orgId, { limit: 1000 })).length,
      memory: memory && { text: memory.text, entities: memory.entities, embedding: [...(memory.embedding ?? [])] },
      settings: await db.settings.get(orgId),
    };
  } finally {
    await db.close();
  }
}

async function rewritten(edit: (entries: ArchiveEntry[]) => ArchiveEntry[]): Promise<string> {
  const entries: ArchiveEntry[] = [];
  for await (const entry of readArchive(backup.path)) entries.push(entry);
  const path = join(root, `edited-${randomUUID()}.tgz`);
  await writeArchive(path, (async function* () {
    yield* edit(entries);
  })());
  return path;
}

const header = (entries: ArchiveEntry[]) => JSON.parse(Buffer.from(entries[0]!.data).toString('utf8'));
const json = (name: string, value: unknown): ArchiveEntry => ({ name, data: Buffer.from(JSON.stringify(value)) });

describe('backup and restore of the embedded store', () => {
  it('restores into a new directory every row as it was, text, numbers, arrays, JSON and vectors alike', async () => {
    const restored = await restoreDataDir({ dataDir: join(root, 'fresh'), file: backup.path, migrationsFolder: defaultMigrationsFolder() });
    expect(restored.previous).toBeUndefined();
    expect([300, 350]).toContain(restored.rows.usage_events);
    const read = await readRestored(join(root, 'fresh'));
    expect(read.org).toMatchObject({ name: 'acme', monthlyBudgetUsd: 12.5, tokenQuota: 9_000_000_000 });
    expect(read.key?.scopes).toEqual(['inference:chat', 'admin']);
    expect(read.rows).toBe(restored.rows.usage_events);
    expect(read.memory).toEqual({ text: tricky, entities: [{ type: 'place', value: 'Lisbon' }], embedding: [0.5, -1, 3.25] });
    expect(read.settings).toEqual({ note: tricky, nested: { list: [1, null, 'x'] } });
  }, 120_000);

  it('replaces a directory that holds a store, keeping that store aside', async () => {
    const dataDir = join(root, 'replaced');
    const db = await createDb({ dataDir });
    await db.orgs.create({ name: 'written-after-the-backup' });
    await db.close();
    const restored = await restoreDataDir({ dataDir, file: backup.path, migrationsFolder: defaultMigrationsFolder() });
    expect(restored.previous).toMatch(/before-restore-/);
    const reopened = await createDb({ dataDir });
    try {
      expect((await reopened.orgs.list()).map((org) => org.name)).toEqual(['acme']);
    } finally {
      await reopened.close();
    }
    expect(existsSync(join(restored.previous!, 'PG_VERSION'))).toBe(true);
  }, 120_000);

  it('refuses a backup of a newer format or schema, and an incomplete one, before touching the directory', async () => {
    const dataDir = join(root, 'refusing');
    const newerFormat = await rewritten((entries) => [json('svc-backup.json', { ...header(entries), format: 2 }), ...entries.slice(1)]);
    const newerSchema = await rewritten((entries) => [json('svc-backup.json', { ...header(entries), migration: { created_at: 4102444800000, tag: '0099_future' } }), ...entries.slice(1)]);
    const truncated = await rewritten((entries) => entries.slice(0, -1));
    const reasons: string[] = [];
    for (const file of [newerFormat, newerSchema, truncated]) {
      const error = await restoreDataDir({ dataDir, file, migrationsFolder: defaultMigrationsFolder() }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StoreError);
      reasons.push(`${(error as StoreError).reason}: ${(error as StoreError).message}`);
    }
    expect(reasons[0]).toMatch(/^newer_backup: .* newer release \(backup format 2/);
    expect(reasons[1]).toMatch(/^newer_backup: .* schema newer than this release knows \(migration 0099_future\)/);
    expect(reasons[2]).toMatch(/^invalid_backup: .* ends before its end marker/);
    expect(await readdir(dataDir).catch(() => [])).toEqual([]);
  }, 120_000);

  it('refuses a directory a running process holds', async () => {
    const error = await restoreDataDir({ dataDir: join(root, 'source'), file: backup.path, migrationsFolder: defaultMigrationsFolder() }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DataDirError);
  });
});
