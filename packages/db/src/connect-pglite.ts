import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import type { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { lockDataDir } from './data-dir-lock.js';
import type { Database, StoreNote } from './database.js';
import { type MigrateTarget, migratePglite } from './migrate.js';
import { createRepositories } from './repositories/index.js';
import { openPglite } from './pglite-start.js';
import { backupIntoDir } from './embedded/backup.js';
import { prepareDataDirApart } from './embedded/prepare-apart.js';
import { STORE_FORMAT } from './embedded/store-marker.js';
import { readJournal } from './migration-journal.js';
import { probe } from './with-timeout.js';

export interface PgliteOptions extends MigrateTarget {
  dataDir: string | undefined;
  migrate: boolean;
  /** Told what preparing the data directory did when there is something to say (an upgrade). */
  log: (note: StoreNote) => void;
}

export async function connectPglite(options: PgliteOptions): Promise<Database> {
  const inMemory = options.dataDir === undefined || options.dataDir.startsWith('memory://');
  let unlock: (() => Promise<void>) | undefined;
  let dataDir = options.dataDir;
  const migrations: MigrateTarget = { migrationsFolder: options.migrationsFolder, schema: options.schema };
  let client: PGlite;
  try {
    if (!inMemory && options.dataDir) {
      await mkdir(options.dataDir, { recursive: true });
      const held = await lockDataDir(options.dataDir);
      unlock = held.release;
      dataDir = held.pgliteDir;
      await mkdir(dataDir, { recursive: true });
      const note = await prepareDataDirApart({ dataDir: options.dataDir, pgliteDir: dataDir, migrations });
      if (note) options.log(note);
    }
    client = await openPglite(dataDir);
  } catch (error) {
    await unlock?.();
    throw error;
  }
  try {
    if (options.schema) {
      await client.exec(`create schema if not exists "${options.schema}"; set search_path to "${options.schema}"`);
    }
    const migrate = () => migratePglite(client, migrations);
    const backupDir = inMemory || !options.dataDir ? tmpdir() : options.dataDir;
    if (options.migrate) await migrate();

    let closed: Promise<void> | undefined;
    return {
      kind: 'pglite',
      ...createRepositories(drizzle(client)),
      migrate,
      backup: async () => backupIntoDir(client, backupDir, { storeFormat: STORE_FORMAT, journal: await readJournal(options.migrationsFolder) }),
      ping: (timeoutMs = 2000) => probe(() => client.query('select 1'), timeoutMs),
      close: () => {
        closed ??= (client.closed ? Promise.resolve() : client.close()).finally(() => unlock?.());
        return closed;
      },
    };
  } catch (error) {
    await client.close().catch(() => {});
    await unlock?.();
    throw error;
  }
}
