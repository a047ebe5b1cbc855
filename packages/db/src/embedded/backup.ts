import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import * as v from 'valibot';
import type { MigrationEntry } from '../migration-journal.js';
import { type ArchiveEntry, readArchive, writeArchive } from './archive.js';
import { copyTableIn, copyTableOut } from './copy-table.js';
import type { SqlRunner } from './sql-runner.js';
import { appliedMigration } from './schema-level.js';
import { StoreError } from './store-error.js';
import { type TableInfo, describeTables } from './table-catalog.js';

/** The version of the backup file's layout; a release refuses files of a higher one. */
export const BACKUP_FORMAT = 1;
const HEADER_ENTRY = 'svc-backup.json';
const END_ENTRY = 'svc-backup-end.json';

const FormatSchema = v.looseObject({ kind: v.literal('svc-backup'), format: v.pipe(v.number(), v.integer()) });

const HeaderSchema = v.object({
  kind: v.literal('svc-backup'),
  format: v.number(),
  created_at: v.string(),
  /** The store the backup was taken from. */
  store: v.object({ engine: v.string(), store_format: v.number(), postgres: v.string() }),
  /** The schema's level: the newest applied migration. */
  migration: v.object({ created_at: v.number(), tag: v.nullable(v.string()) }),
  tables: v.array(v.object({ name: v.string(), columns: v.array(v.object({ name: v.string(), type: v.string() })) })),
});
const EndSchema = v.object({ rows: v.record(v.string(), v.number()) });

export type BackupHeader = v.InferOutput<typeof HeaderSchema>;

/** What a backup or a restore moved: rows per table. */
export interface BackupSummary {
  tables: number;
  rows: Record<string, number>;
}

function json(name: string, value: unknown): ArchiveEntry {
  return { name, data: Buffer.from(`${JSON.stringify(value, null, 2)}\n`) };
}

/** Rows in a COPY text chunk: one line each (newlines inside values are escaped). */
function countRows(chunk: Uint8Array): number {
  let rows = 0;
  for (const byte of chunk) if (byte === 10) rows += 1;
  return rows;
}

async function* backupEntries(pg: SqlRunner, header: BackupHeader, tables: TableInfo[], rows: Record<string, number>): AsyncGenerator<ArchiveEntry> {
  yield json(HEADER_ENTRY, header);
  for (const table of tables) {
    rows[table.name] = 0;
    let part = 0;
    for await (const chunk of copyTableOut(pg, 'public', table)) {
      rows[table.name]! += countRows(chunk);
      yield { name: `data/${table.name}/${String(part++).padStart(5, '0')}.copy`, data: chunk };
    }
  }
  yield json(END_ENTRY, { rows });
}

export interface BackupSource {
  /** The store format of the directory the database lives in. */
  storeFormat: number;
  /** The migrations this release knows, to name the schema's level. */
  journal: readonly MigrationEntry[];
}

/**
 * Writes every table of the gateway's schema to `path` (tar.gz: a header, COPY text chunks, an
 * end marker with row counts) from one snapshot: the store serves no other query meanwhile.
 */
export async function writeBackup(pg: PGlite, path: string, source: BackupSource): Promise<BackupSummary> {
  return pg.transaction(async (tx) => {
    await tx.exec('set transaction isolation level repeatable read');
    const [{ server_version: postgres } = { server_version: '' }] = (await tx.query<{ server_version: string }>('show server_version')).rows;
    const level = (await appliedMigration(tx)) ?? 0;
    const tables = await describeTables(tx, 'public');
    const header: BackupHeader = {
      kind: 'svc-backup',
      format: BACKUP_FORMAT,
      created_at: new Date().toISOString(),
      store: { engine: 'pglite', store_format: source.storeFormat, postgres },
      migration: { created_at: level, tag: source.journal.find((entry) => entry.when === level)?.tag ?? null },
      tables: tables.map(({ name, columns }) => ({ name, columns })),
    };
    const rows: Record<string, number> = {};
    await writeArchive(path, backupEntries(tx, header, tables, rows));
    return { tables: tables.length, rows };
  });
}

function parseJson(entry: ArchiveEntry): unknown {
  try {
    return JSON.parse(Buffer.from(entry.data).toString('utf8'));
  } catch {
    throw new StoreError('invalid_backup', `${entry.name} in the backup is not JSON`);
  }
}

/** Checks the header of a backup and that this release can restore it (format, schema level). */
export function checkHeader(raw: unknown, file: string, journal: readonly MigrationEntry[]): BackupHeader {
  const format = v.safeParse(FormatSchema, raw);
  if (!format.success) throw new StoreError('invalid_backup', `${file} is not an svc backup (its first entry is not an svc-backup header)`);
  if (format.output.format > BACKUP_FORMAT) {
    throw new StoreError('newer_backup', `${file} was written by a newer release (backup format ${format.output.format}, this release reads ${BACKUP_FORMAT}); restore it with that release or a newer one`);
  }
  const header = v.safeParse(HeaderSchema, raw);
  if (!header.success) throw new StoreError('invalid_backup', `${file}: its header is damaged (${header.issues[0].message})`);
  const latest = journal.at(-1)?.when ?? 0;
  if (header.output.migration.created_at > latest) {
    throw new StoreError('newer_backup', `${file} holds a schema newer than this release knows (migration ${header.output.migration.tag ?? header.output.migration.created_at}); restore it with the release that wrote it or a newer one`);
  }
  return header.output;
}

/** Reads and checks only the header of the backup at `path`. */
export async function readBackupHeader(path: string, journal: readonly MigrationEntry[]): Promise<BackupHeader> {
  for await (const entry of readArchive(path)) {
    if (entry.name !== HEADER_ENTRY) break;
    return checkHeader(parseJson(entry), path, journal);
  }
  throw new StoreError('invalid_backup', `${path} is not an svc backup (its first entry is not ${HEADER_ENTRY})`);
}

/**
 * Loads every row of the backup at `path` into the tables of `schema` (which must exist with
 * the backup's columns). Fails, without claiming success, on a file that ends before its end
 * marker or whose row counts differ from it; run it inside a transaction to load all or nothing.
 */
export async function loadBackup(pg: SqlRunner, path: string, schema: string, header: BackupHeader): Promise<BackupSummary> {
  const tables = new Map(header.tables.map((table) => [table.name, table]));
  const rows: Record<string, number> = Object.fromEntries(header.tables.map((table) => [table.name, 0]));
  for await (const entry of readArchive(path)) {
    if (entry.name === HEADER_ENTRY) continue;
    if (entry.name === END_ENTRY) {
      const end = v.safeParse(EndSchema, parseJson(entry));
      if (!end.success) throw new StoreError('invalid_backup', `${path}: its end marker is damaged`);
      for (const [name, count] of Object.entries(end.output.rows)) {
        if (rows[name] !== count) throw new StoreError('invalid_backup', `${path}: table ${name} holds ${rows[name] ?? 0} rows, its end marker says ${count}`);
      }
      return { tables: tables.size, rows };
    }
    const name = /^data\/([^/]+)\/\d+\.copy$/.exec(entry.name)?.[1];
    const table = name === undefined ? undefined : tables.get(name);
    if (!table || name === undefined) throw new StoreError('invalid_backup', `${path}: unexpected entry ${entry.name}`);
    rows[name]! += await copyTableIn(pg, schema, table, entry.data);
  }
  throw new StoreError('invalid_backup', `${path} ends before its end marker: the backup is incomplete`);
}

/** A backup written to a file of the store's own, for the caller to move or stream, then discard. */
export interface BackupFile {
  path: string;
  summary: BackupSummary;
  /** Removes the file (idempotent). */
  discard(): Promise<void>;
}

/** Writes a backup of `pg` into `dir` (the data directory, or the system's temporary one) under a name of its own. */
export async function backupIntoDir(pg: PGlite, dir: string, source: BackupSource): Promise<BackupFile> {
  const path = join(dir, `backup-${new Date().toISOString().replaceAll(':', '-')}-${randomUUID().slice(0, 8)}.tgz`);
  const summary = await writeBackup(pg, path, source);
  return { path, summary, discard: () => rm(path, { force: true }) };
}
