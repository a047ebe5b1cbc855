import { randomUUID } from 'node:crypto';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, describe, expect, it } from 'vitest';
import { createDb } from './create-db.js';
import type { Database } from './database.js';
import { createTestOrg } from './test/fixtures.js';
import { dropSchema, randomSchemaName } from './test/index.js';

/**
 * A measurement, not a check (`SVC_MEASURE=1`): how long creating a 50,000-line batch takes and
 * the longest the event loop was held meanwhile, on the embedded store and on PostgreSQL
 * (`TEST_DATABASE_URL`). docs/operations.md "Files and batches" quotes it.
 */
const LINES = 50_000;
const pgUrl = process.env.TEST_DATABASE_URL;
const schema = randomSchemaName();
afterAll(async () => {
  if (pgUrl && process.env.SVC_MEASURE) await dropSchema(pgUrl, schema);
});

async function measure(name: string, db: Database): Promise<void> {
  const org = await createTestOrg(db);
  const lines = Array.from({ length: LINES }, (_, index) => ({ customId: `req-${index}`, body: { model: 'gpt-4o-mini', max_tokens: 50, messages: [{ role: 'user', content: `question ${index} ${'x'.repeat(400)}` }] } }));
  const now = Date.now();
  const batch = { id: `batch_${randomUUID().replaceAll('-', '')}`, orgId: org.id, keyId: 'key_m', endpoint: '/v1/chat/completions', inputFileId: 'file-m', completionWindow: '24h', status: 'validating' as const, metadata: null, errors: null, total: LINES, createdAt: new Date(now), expiresAt: new Date(now + 86_400_000) };
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  const started = performance.now();
  await db.batches.create(batch, lines);
  const took = performance.now() - started;
  loop.disable();
  console.log(`${name}: ${LINES} lines in ${(took / 1000).toFixed(2)} s, event loop max ${(loop.max / 1e6).toFixed(1)} ms, p99 ${(loop.percentile(99) / 1e6).toFixed(1)} ms`);
  expect((await db.batches.pendingLines(batch.id, 1, LINES - 2)).map((line) => line.line)).toEqual([LINES - 1]);
  await db.close();
}

describe.runIf(process.env.SVC_MEASURE)('creating a 50,000-line batch (measurement)', () => {
  it('embedded store (PGlite, in process)', async () => {
    await measure('pglite', await createDb());
  }, 600_000);

  it.runIf(pgUrl)('PostgreSQL', async () => {
    await measure('postgres', await createDb({ url: pgUrl!, schema, poolSize: 4, callTimeoutMs: 120_000 }));
  }, 600_000);
});
