import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as v from 'valibot';
import { StoreError } from './store-error.js';

/**
 * The layout this release writes: PGlite on PostgreSQL {@link POSTGRES_MAJOR}, the gateway's
 * tables in the database `postgres`. Format 1 (never recorded in a file) is what PGlite 0.3 and
 * earlier wrote: the same files, the tables in `template1`, which PGlite 0.4 does not open.
 */
export const STORE_FORMAT = 2;
/** The PostgreSQL major version of this release's PGlite; its data files are tied to it. */
export const POSTGRES_MAJOR = 17;
/** The file beside the lock that records the format a data directory was written in. */
export const MARKER_FILE = 'svc-store.json';

const MarkerSchema = v.looseObject({
  store_format: v.pipe(v.number(), v.integer()),
  postgres_major: v.pipe(v.number(), v.integer()),
  database: v.string(),
  updated_at: v.string(),
  upgraded_from: v.optional(v.looseObject({ store_format: v.number(), at: v.string(), original: v.string() })),
});

export type StoreMarker = v.InferOutput<typeof MarkerSchema>;

/** The marker of `dataDir`, or undefined when it has none (a new directory, or one of an earlier release). */
export async function readMarker(dataDir: string): Promise<StoreMarker | undefined> {
  let text: string;
  try {
    text = await readFile(join(dataDir, MARKER_FILE), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const parsed = v.safeParse(MarkerSchema, safeJson(text));
  if (!parsed.success) {
    throw new StoreError('unreadable_store', `${join(dataDir, MARKER_FILE)} is damaged; restore the data directory from a backup (pnpm svc restore FILE)`);
  }
  return parsed.output;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Records `marker` in `dataDir` (written aside, then renamed: never half a file). */
export async function writeMarker(dataDir: string, marker: StoreMarker): Promise<void> {
  const path = join(dataDir, MARKER_FILE);
  await writeFile(`${path}.partial`, `${JSON.stringify(marker, null, 2)}\n`);
  await rename(`${path}.partial`, path);
}

/** The marker of a directory in this release's format. */
export function currentMarker(extra: Pick<StoreMarker, 'upgraded_from'> = {}): StoreMarker {
  return { store_format: STORE_FORMAT, postgres_major: POSTGRES_MAJOR, database: 'postgres', updated_at: new Date().toISOString(), ...extra };
}

/** Refuses a directory written in a format this release cannot read. */
export function assertReadable(marker: StoreMarker, dataDir: string): void {
  if (marker.store_format > STORE_FORMAT || marker.postgres_major !== POSTGRES_MAJOR) {
    throw new StoreError(
      'newer_store',
      `${dataDir} was written by a newer release (store format ${marker.store_format}, PostgreSQL ${marker.postgres_major}; this release reads format ${STORE_FORMAT}, PostgreSQL ${POSTGRES_MAJOR}): run that release, or back it up there (pnpm svc backup FILE) and restore it into a new directory with a release that reads it`,
    );
  }
}

/** Refuses PostgreSQL data files of another major version than this release's PGlite opens. */
export async function assertPostgresVersion(pgliteDir: string, dataDir: string): Promise<void> {
  const major = Number((await readFile(join(pgliteDir, 'PG_VERSION'), 'utf8')).trim());
  if (major !== POSTGRES_MAJOR) {
    throw new StoreError(
      'unreadable_store',
      `${dataDir} holds PostgreSQL ${major} files and this release's embedded PostgreSQL is ${POSTGRES_MAJOR}: with the release that wrote it run pnpm svc backup FILE, then here pnpm svc restore FILE into a new SVC_DATA_DIR`,
    );
  }
}
