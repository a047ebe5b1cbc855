import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { defaultMigrationsFolder, migratePglite } from '../migrate.js';
import { journalUpTo, readJournal } from '../migration-journal.js';
import { openPglite } from '../pglite-start.js';

/** The migrations up to `tag` (the schema level of an earlier release) in a folder of their own, removed by `remove()`. */
export async function migrationsUpTo(tag: string): Promise<{ folder: string; remove(): Promise<void> }> {
  const folder = defaultMigrationsFolder();
  const level = (await readJournal(folder)).find((entry) => entry.tag === tag);
  if (!level) throw new Error(`${tag} is not in the journal`);
  return journalUpTo(folder, level.when);
}

/**
 * An embedded store as the release at schema level `tag` left it, with `write` run on it (the rows
 * that release wrote): its data directory, removed with the migrations' folder by `remove()`.
 */
export async function embeddedStoreAt(tag: string, write: (pg: PGlite) => Promise<void>): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), `svc-${tag}-`));
  const upTo = await migrationsUpTo(tag);
  const remove = async () => {
    await upTo.remove();
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const pg = await openPglite(dir);
    try {
      await migratePglite(pg, { migrationsFolder: upTo.folder, schema: undefined });
      await write(pg);
    } finally {
      await pg.close();
    }
  } catch (error) {
    await remove();
    throw error;
  }
  return { dir, remove };
}
