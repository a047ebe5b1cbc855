import type { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migratePglite } from '../migrate.js';
import { openPglite } from '../pglite-start.js';
import { type Repositories, createRepositories } from '../repositories/index.js';
import type { RowTables } from '../row-intake.js';
import type { StoreThreadSettings } from '../thread/messages.js';
import { probe } from '../with-timeout.js';
import type { BackupSummary } from './backup.js';
import { copyFirst } from './copy-rows.js';

/** The embedded store on the thread that opened it: what the store thread serves. */
export interface EmbeddedStore {
  repositories: Repositories;
  /** The ledger's and the decision log's tables as the intake writes them (COPY first). */
  rowTables: RowTables;
  migrate(): Promise<void>;
  /** A backup file in the settings' backup directory, for the caller to move or stream, then remove. */
  backup(): Promise<{ path: string; summary: BackupSummary }>;
  ping(timeoutMs: number): Promise<boolean>;
  close(): Promise<void>;
}

/** Opens PGlite on `settings.pgliteDir` (already prepared and locked by the caller), migrated when asked. */
export async function openEmbedded(settings: StoreThreadSettings): Promise<EmbeddedStore> {
  const client: PGlite = await openPglite(settings.pgliteDir);
  try {
    if (settings.schema) await client.exec(`create schema if not exists "${settings.schema}"; set search_path to "${settings.schema}"`);
    const migrations = { migrationsFolder: settings.migrationsFolder, schema: settings.schema };
    const migrate = () => migratePglite(client, migrations);
    if (settings.migrate) await migrate();
    const repositories = createRepositories(drizzle(client));
    return {
      repositories,
      rowTables: copyFirst(client, repositories),
      migrate,
      backup: () => backupOf(client, settings),
      ping: (timeoutMs) => probe(() => client.query('select 1'), timeoutMs),
      close: () => (client.closed ? Promise.resolve() : client.close()),
    };
  } catch (error) {
    await client.close().catch(() => {});
    throw error;
  }
}

/**
 * A backup of the open store. Its modules (the tar archive, tar-stream and its streams, the
 * journal's reader) are imported by the first backup: the store thread does not hold them from
 * its start for an operation that most gateways never run.
 */
async function backupOf(client: PGlite, settings: StoreThreadSettings): Promise<{ path: string; summary: BackupSummary }> {
  const [{ backupIntoDir }, { STORE_FORMAT }, { readJournal }] = await Promise.all([import('./backup.js'), import('./store-marker.js'), import('../migration-journal.js')]);
  const made = await backupIntoDir(client, settings.backupDir, { storeFormat: STORE_FORMAT, journal: await readJournal(settings.migrationsFolder) });
  return { path: made.path, summary: made.summary };
}
