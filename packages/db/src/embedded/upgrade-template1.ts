import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { type MigrateTarget, migratePglite } from '../migrate.js';
import type { MigrationEntry } from '../migration-journal.js';
import { openPglite } from '../pglite-start.js';
import { loadBackup, readBackupHeader, writeBackup } from './backup.js';
import { keepOriginal } from './keep-original.js';
import { mergeStaged } from './merge-staged.js';
import { holdsGatewayData } from './schema-level.js';
import { describeTables, ident } from './table-catalog.js';

/** Where an upgrade from format 1 keeps the directory as it found it. */
export const FORMAT_1_ORIGINAL = 'pre-upgrade-format-1';
const STAGING = 'svc_upgrade';

export interface UpgradeSettings {
  dataDir: string;
  pgliteDir: string;
  migrations: MigrateTarget;
  journal: readonly MigrationEntry[];
}

/** What an upgrade did, for the start log. */
export interface UpgradeReport {
  /** Rows brought over from `template1`, per table. */
  added: Record<string, number>;
  /** Where the directory as found is kept. */
  original: string;
}

async function withPglite<T>(dir: string, database: string | undefined, work: (pg: PGlite) => Promise<T>): Promise<T> {
  const pg = await openPglite(dir, database);
  try {
    return await work(pg);
  } finally {
    await pg.close();
  }
}

/** Whether PGlite 0.3 or earlier left the gateway's tables in `template1` of `pgliteDir`. */
export function template1HoldsData(pgliteDir: string): Promise<boolean> {
  return withPglite(pgliteDir, 'template1', holdsGatewayData);
}

async function mergeInto(pg: PGlite, archive: string, journal: readonly MigrationEntry[]): Promise<Record<string, number>> {
  const header = await readBackupHeader(archive, journal);
  return pg.transaction(async (tx) => {
    await tx.exec(`create schema ${ident(STAGING)}`);
    for (const table of header.tables) await tx.exec(`create table ${ident(STAGING)}.${ident(table.name)} (like public.${ident(table.name)})`);
    await loadBackup(tx, archive, STAGING, header);
    const added = await mergeStaged(tx, await describeTables(tx, 'public'), STAGING);
    await tx.exec(`drop schema ${ident(STAGING)} cascade`);
    return added;
  });
}

/**
 * Brings a format-1 directory (PGlite 0.3: the tables in `template1`) to this release's format,
 * whether or not a release with PGlite 0.4 has since opened it and started over in `postgres`:
 * the old database is migrated to the current schema, written to an archive, and merged into
 * `postgres` in one transaction (what was written since is kept; see mergeStaged); then
 * `template1` is emptied. The directory as found is copied aside first. Every step can be run
 * again after an interruption with the same outcome.
 */
export async function upgradeTemplate1(settings: UpgradeSettings): Promise<UpgradeReport> {
  const { dataDir, pgliteDir, migrations, journal } = settings;
  const original = await keepOriginal(dataDir, pgliteDir, FORMAT_1_ORIGINAL);
  const archive = join(dataDir, 'upgrade-format-1.tgz');
  await withPglite(pgliteDir, 'template1', async (pg) => {
    await migratePglite(pg, migrations);
    await writeBackup(pg, archive, { storeFormat: 1, journal });
  });
  const added = await withPglite(pgliteDir, undefined, async (pg) => {
    await migratePglite(pg, migrations);
    return mergeInto(pg, archive, journal);
  });
  await withPglite(pgliteDir, 'template1', (pg) =>
    pg.exec('drop schema if exists drizzle cascade; drop schema public cascade; create schema public').then(() => {}),
  );
  await rm(archive, { force: true });
  return { added, original };
}
