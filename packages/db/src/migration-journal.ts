import { mkdtemp, readFile, rm, writeFile, copyFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as v from 'valibot';

const JournalSchema = v.object({
  entries: v.array(v.looseObject({ idx: v.number(), when: v.number(), tag: v.string() })),
});

/** One committed migration: its file's tag and the time drizzle records it under. */
export interface MigrationEntry {
  tag: string;
  /** drizzle's `folderMillis`: what `__drizzle_migrations.created_at` holds once it is applied. */
  when: number;
}

/** The migrations of `folder`, oldest first (drizzle's `meta/_journal.json`). */
export async function readJournal(folder: string): Promise<MigrationEntry[]> {
  const parsed = v.parse(JournalSchema, JSON.parse(await readFile(join(folder, 'meta', '_journal.json'), 'utf8')));
  return parsed.entries.map(({ tag, when }) => ({ tag, when }));
}

/**
 * A temporary copy of `folder` that holds only the migrations up to `when` (inclusive), for
 * rebuilding a schema as an earlier release left it. Resolves to the folder and its removal.
 */
export async function journalUpTo(folder: string, when: number): Promise<{ folder: string; remove(): Promise<void> }> {
  const raw = JSON.parse(await readFile(join(folder, 'meta', '_journal.json'), 'utf8')) as { entries: { when: number; tag: string }[] };
  const kept = raw.entries.filter((entry) => entry.when <= when);
  const copy = await mkdtemp(join(tmpdir(), 'svc-migrations-'));
  await mkdir(join(copy, 'meta'));
  await writeFile(join(copy, 'meta', '_journal.json'), JSON.stringify({ ...raw, entries: kept }));
  for (const entry of kept) await copyFile(join(folder, `${entry.tag}.sql`), join(copy, `${entry.tag}.sql`));
  return { folder: copy, remove: () => rm(copy, { recursive: true, force: true }) };
}
