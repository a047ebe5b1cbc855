import { createDb, type Database } from '@svc/db';
import { createTestOrg } from '@svc/db/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readWholeFile } from '../files/file-store.js';
import { finalizeBatch } from './finalize-batch.js';

// Three pages of 500 and a short one: the files are written a page at a time.
const LINES = 1_601;
const failing = (line: number) => line % 7 === 3;

let db: Database;
beforeAll(async () => {
  db = await createDb();
}, 120_000);
afterAll(() => db?.close());

const result = (line: number) => ({
  id: `batch_req_${line}`,
  custom_id: `c${line}`,
  response: failing(line) ? { status_code: 400, body: { error: { message: 'bad' } } } : { status_code: 200, body: { usage: { prompt_tokens: 3, completion_tokens: line % 5, total_tokens: 3 + (line % 5) } } },
  error: null,
});

/** The file's JSONL lines, parsed. */
async function linesOf(orgId: string, id: string | null): Promise<{ custom_id: string }[]> {
  const file = id === null ? undefined : await db.files.get(orgId, id);
  if (!file) return [];
  const text = new TextDecoder().decode(await readWholeFile(db.files, file));
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as { custom_id: string });
}

describe('finalizeBatch', () => {
  it('writes the output and error files page by page, each in line order, and sums the usage of every page', async () => {
    const org = await createTestOrg(db);
    const now = new Date();
    const lines = Array.from({ length: LINES }, (_, line) => ({ customId: `c${line}`, body: { model: 'm', messages: [] } }));
    const batch = await db.batches.create(
      { id: `batch_finalize_${Date.now()}`, orgId: org.id, keyId: 'key_x', endpoint: '/v1/chat/completions', inputFileId: 'file-x', completionWindow: '24h', status: 'in_progress', metadata: null, errors: null, total: LINES, createdAt: now, expiresAt: new Date(now.getTime() + 86_400_000) },
      lines,
    );
    for (let line = 0; line < LINES; line++) await db.batches.answerLine(batch.id, { line, statusCode: failing(line) ? 400 : 200, result: result(line) });

    const ended = await finalizeBatch(db.batches, { store: db.files, maxBytes: 1024 * 1024, ttlDays: 30 }, batch, 'completed');

    const all = Array.from({ length: LINES }, (_, line) => line);
    expect(ended).toMatchObject({ status: 'completed', completed: all.filter((line) => !failing(line)).length, failed: all.filter(failing).length });
    expect((await linesOf(org.id, ended!.outputFileId)).map((line) => line.custom_id)).toEqual(all.filter((line) => !failing(line)).map((line) => `c${line}`));
    expect((await linesOf(org.id, ended!.errorFileId)).map((line) => line.custom_id)).toEqual(all.filter(failing).map((line) => `c${line}`));
    const ok = all.filter((line) => !failing(line));
    const output = ok.reduce((sum, line) => sum + (line % 5), 0);
    expect(ended!.usage).toEqual({ input_tokens: 3 * ok.length, input_tokens_details: { cached_tokens: 0 }, output_tokens: output, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 3 * ok.length + output });
  }, 300_000);
});
