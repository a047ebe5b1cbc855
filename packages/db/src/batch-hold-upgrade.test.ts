import { describe, expect, it } from 'vitest';
import { createDb } from './create-db.js';
import { embeddedStoreAt } from './test/index.js';

/** The schema level of the release before batch budget holds (0028 adds `batches.hold`). */
const PREVIOUS_MIGRATION = '0027_batch_interactive_cost';
const org = '00000000-0000-4000-8000-00000000a028';

describe('a batch the release before 0028 wrote (no budget hold)', () => {
  it('is read, worked and written by this release with no hold', async () => {
    const store = await embeddedStoreAt(PREVIOUS_MIGRATION, async (pg) => {
      await pg.query('insert into organizations (id, name) values ($1, $2)', [org, 'batches-before-0028']);
      await pg.query(
        `insert into batches (id, org_id, key_id, endpoint, input_file_id, completion_window, status, total, expires_at, natives) values ('batch_before0028', $1, 'key_a', '/v1/chat/completions', 'file-a', '24h', 'in_progress', 1, now() + interval '1 day', '[]'::jsonb)`,
        [org],
      );
      await pg.query(`insert into batch_lines (batch_id, line, custom_id, body) values ('batch_before0028', 0, 'a', '{"model":"m"}'::jsonb)`, []);
    });
    try {
      const db = await createDb({ dataDir: store.dir });
      try {
        expect(await db.batches.get(org, 'batch_before0028')).toMatchObject({ id: 'batch_before0028', hold: null, natives: [] });
        const claimed = await db.batches.claim('worker_a', new Date(Date.now() + 60_000));
        expect(claimed).toMatchObject({ id: 'batch_before0028', hold: null });
        expect(await db.batches.answerLine('batch_before0028', { line: 0, statusCode: 200, result: { custom_id: 'a' } })).toBe(true);
      } finally {
        await db.close();
      }
    } finally {
      await store.remove();
    }
  }, 300_000);
});
