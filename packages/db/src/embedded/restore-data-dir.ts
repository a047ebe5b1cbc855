import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { PGLITE_SUBDIR, lockDataDir } from '../data-dir-lock.js';
import { migratePglite } from '../migrate.js';
import { journalUpTo, readJournal } from '../migration-journal.js';
import { openPglite } from '../pglite-start.js';
import { type BackupSummary, loadBackup, readBackupHeader } from './backup.js';
import { isGatewayEntry } from './keep-original.js';
import { currentMarker, writeMarker } from './store-marker.js';

export interface RestoreSettings {
  /** The embedded data directory (SVC_DATA_DIR): new, empty, or one to replace. */
  dataDir: string;
  /** A file written by `svc backup`. */
  file: string;
  migrationsFolder: string;
}

/** What a restore did. */
export interface RestoreReport extends BackupSummary {
  /** Where the directory's previous store was moved, when it had one. */
  previous: string | undefined;
}

/** Rebuilds the backup's schema level in a new database at `dir`, loads its rows, then migrates to this release's level. */
async function buildFromBackup(dir: string, settings: RestoreSettings): Promise<BackupSummary> {
  const journal = await readJournal(settings.migrationsFolder);
  const header = await readBackupHeader(settings.file, journal);
  const upTo = await journalUpTo(settings.migrationsFolder, header.migration.created_at);
  let pg: PGlite | undefined;
  try {
    pg = await openPglite(dir);
    await migratePglite(pg, { migrationsFolder: upTo.folder, schema: undefined });
    const loaded = await pg.transaction(async (tx) => {
      // Rows arrive table by table, not in reference order: the backup was consistent when taken.
      await tx.exec('set local session_replication_role = replica');
      return loadBackup(tx, settings.file, 'public', header);
    });
    await migratePglite(pg, { migrationsFolder: settings.migrationsFolder, schema: undefined });
    return loaded;
  } finally {
    await pg?.close();
    await upTo.remove();
  }
}

/** Moves the store the directory holds now (either layout) aside; resolves to where, or undefined when it held none. */
async function moveCurrentAside(dataDir: string, pgliteDir: string): Promise<string | undefined> {
  const aside = join(dataDir, `before-restore-${new Date().toISOString().replaceAll(':', '-')}`);
  if (resolve(pgliteDir) !== resolve(dataDir)) {
    const held = await readdir(pgliteDir).catch(() => []);
    if (held.length === 0) return undefined;
    await rename(pgliteDir, aside);
    return aside;
  }
  const entries = (await readdir(dataDir)).filter((name) => !isGatewayEntry(name));
  if (entries.length === 0) return undefined;
  await mkdir(aside);
  for (const entry of entries) await rename(join(dataDir, entry), join(aside, entry));
  return aside;
}

/**
 * Restores a backup into the embedded data directory, which no process may hold: the backup is
 * loaded into a new store beside the current one (`restore.tmp`), which replaces it only once
 * complete; the current store is kept in `before-restore-<time>`. A backup written by a newer
 * release is refused, and so is an incomplete one, before anything is changed.
 *
 * @throws StoreError when the file cannot be restored; DataDirError when a process holds the directory.
 */
export async function restoreDataDir(settings: RestoreSettings): Promise<RestoreReport> {
  await readBackupHeader(settings.file, await readJournal(settings.migrationsFolder));
  await mkdir(settings.dataDir, { recursive: true });
  const held = await lockDataDir(settings.dataDir);
  try {
    const building = join(settings.dataDir, 'restore.tmp');
    await rm(building, { recursive: true, force: true });
    await mkdir(building);
    const summary = await buildFromBackup(building, settings).catch(async (error: unknown) => {
      await rm(building, { recursive: true, force: true });
      throw error;
    });
    const previous = await moveCurrentAside(settings.dataDir, held.pgliteDir);
    await rename(building, join(settings.dataDir, PGLITE_SUBDIR));
    await writeMarker(settings.dataDir, currentMarker());
    return { ...summary, previous };
  } finally {
    await held.release();
  }
}
