import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDb } from './create-db.js';
import { defaultMigrationsFolder, migratePglite } from './migrate.js';
import { journalUpTo, readJournal } from './migration-journal.js';
import { openPglite } from './pglite-start.js';

/** The schema level of the release before batch budget holds (0028 adds `batches.hold`). */
const PREVIOUS_MIGRATION = '0027_batch_interactive_cost';
const org = '00000000-0000-4000-8000-00000000a028';

describe('a batch the release before 0028 wrote (no budget hold)', () => {
  it('is read, worked and written by this release with no hold', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'svc-batch-0027-'));
    const folder = defaultMigrationsFolder();
    const level = (await readJournal(folder)).find((entry) => entry.tag === PREVIOUS_MIGRATION);
    if (!level) throw new Error(`${PREVIOUS_MIGRATION} is not in the journal`);
    const upTo = await journalUpTo(folder, level.when);
    try {
      const pg = await openPglite(dir);
      try {
        await migratePglite(pg, { migrationsFolder: upTo.folder, schema: undefined });
        await pg.query('insert into organizations (id, name) values ($1, $2)', [org, 'batches-before-0028']);
        await pg.query(
          `insert into batches (id, org_id, key_id, endpoint, input_file_id, completion_window, status, total, expires_at, natives) values ('batch_before0028', $1, 'key_a', '/v1/chat/completions', 'file-a', '24h', 'in_progress', 1, now() + interval '1 day', '[]'::jsonb)`,
          [org],
        );
        await pg.query(`insert into batch_lines (batch_id, line, custom_id, body) values ('batch_before0028', 0, 'a', '{"model":"m"}'::jsonb)`, []);
      } finally {
        await pg.close();
      }
      const db = await createDb({ dataDir: dir });
      try {
        expect(await db.batches.get(org, 'batch_before0028')).toMatchObject({ id: 'batch_before0028', hold: null, natives: [] });
        const claimed = await db.batches.claim('worker_a', new Date(Date.now() + 60_000));
        expect(claimed).toMatchObject({ id: 'batch_before0028', hold: null });
        expect(await db.batches.answerLine('batch_before0028', { line: 0, statusCode: 200, result: { custom_id: 'a' } })).toBe(true);
      } finally {
        await db.close();
      }
    } finally {
      await upTo.remove();
      await rm(dir, { recursive: true, force: true });
    }
  }, 300_000);
});
