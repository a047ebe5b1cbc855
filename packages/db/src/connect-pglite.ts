import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { lockDataDir } from './data-dir-lock.js';
import type { Database, StoreNote } from './database.js';
import type { MigrateTarget } from './migrate.js';
import { prepareDataDirApart } from './embedded/prepare-apart.js';
import type { StoreThreadSettings } from './thread/messages.js';
import { openStoreThread } from './thread/store-thread.js';

export interface PgliteOptions extends MigrateTarget {
  dataDir: string | undefined;
  migrate: boolean;
  /** Told what preparing the data directory did when there is something to say (an upgrade). */
  log: (note: StoreNote) => void;
}

export async function connectPglite(options: PgliteOptions): Promise<Database> {
  const inMemory = options.dataDir === undefined || options.dataDir.startsWith('memory://');
  if (inMemory || !options.dataDir) return openStoreThread(threadSettings(options, options.dataDir, tmpdir()), async () => {});
  await mkdir(options.dataDir, { recursive: true });
  const held = await lockDataDir(options.dataDir);
  try {
    await mkdir(held.pgliteDir, { recursive: true });
    const note = await prepareDataDirApart({ dataDir: options.dataDir, pgliteDir: held.pgliteDir, migrations: { migrationsFolder: options.migrationsFolder, schema: options.schema } });
    if (note) options.log(note);
    return await openStoreThread(threadSettings(options, held.pgliteDir, options.dataDir), held.release);
  } catch (error) {
    await held.release();
    throw error;
  }
}

function threadSettings(options: PgliteOptions, pgliteDir: string | undefined, backupDir: string): StoreThreadSettings {
  return { pgliteDir, schema: options.schema, migrationsFolder: options.migrationsFolder, migrate: options.migrate, backupDir };
}
