import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { MigrateTarget } from '../migrate.js';
import { readJournal } from '../migration-journal.js';
import { StoreError } from './store-error.js';
import { STORE_FORMAT, assertPostgresVersion, assertReadable, currentMarker, readMarker, writeMarker } from './store-marker.js';
import { template1HoldsData, upgradeTemplate1 } from './upgrade-template1.js';

export interface PrepareSettings {
  dataDir: string;
  pgliteDir: string;
  migrations: MigrateTarget;
  /** Creates PGlite's files in a new directory (initdb). */
  initialise(pgliteDir: string): Promise<void>;
}

/** What preparing the directory did, for the start log; absent when there was nothing to say. */
export interface PrepareNote {
  level: 'info' | 'warn';
  message: string;
}

function describeAdded(added: Record<string, number>): string {
  const moved = Object.entries(added).filter(([, rows]) => rows > 0);
  if (moved.length === 0) return 'no rows';
  return moved.map(([table, rows]) => `${table} ${rows}`).join(', ');
}

/**
 * Makes `dataDir` one this release serves from, or refuses it: a new directory is initialised
 * and marked; a marked one is checked (a newer format is refused); an unmarked one of an
 * earlier release is upgraded (see upgradeTemplate1) and marked. Never starts over data it
 * cannot read.
 *
 * @throws StoreError with one line saying what to run.
 */
export async function prepareDataDir(settings: PrepareSettings): Promise<PrepareNote | undefined> {
  const { dataDir, pgliteDir } = settings;
  if (existsSync(join(dataDir, 'restore.tmp'))) {
    throw new StoreError('interrupted_restore', `${dataDir}: a restore stopped half way (restore.tmp is there); run pnpm svc restore FILE again`);
  }
  const marker = await readMarker(dataDir);
  if (marker) {
    assertReadable(marker, dataDir);
    return undefined;
  }
  if (!existsSync(join(pgliteDir, 'PG_VERSION'))) {
    await settings.initialise(pgliteDir);
    await writeMarker(dataDir, currentMarker());
    return undefined;
  }
  await assertPostgresVersion(pgliteDir, dataDir);
  if (!(await template1HoldsData(pgliteDir))) {
    await writeMarker(dataDir, currentMarker());
    return undefined;
  }
  const report = await upgradeTemplate1({ ...settings, journal: await readJournal(settings.migrations.migrationsFolder) });
  await writeMarker(dataDir, currentMarker({ upgraded_from: { store_format: 1, at: new Date().toISOString(), original: report.original } }));
  return {
    level: 'warn',
    message: `upgraded the embedded store in ${dataDir} from format 1 (PGlite 0.3, tables in template1) to format ${STORE_FORMAT}: brought over ${describeAdded(report.added)}; the directory as it was is kept in ${report.original} (delete it once your data is checked)`,
  };
}
