import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { createDb } from './create-db.js';
import type { Database } from './database.js';
import { migratePglite, migratePostgres } from './migrate.js';
import { openPglite } from './pglite-start.js';
import { FILE_PART_BYTES } from './repositories/file-parts.js';
import { checkPostgres, dropSchema, migrationsUpTo, randomSchemaName } from './test/index.js';

/** The schema level of the release before file chunks (its files hold their bytes in `files.content`). */
const PREVIOUS_MIGRATION = '0022_stored_models';
const org = '00000000-0000-4000-8000-0000000f11e5';
const small = { id: 'file-before0023small', bytes: new TextEncoder().encode('{"custom_id":"a"}\n') };
// Longer than a part: written whole, it must still be read whole.
const large = { id: 'file-before0023large', bytes: Uint8Array.from({ length: FILE_PART_BYTES + 4321 }, (_, i) => (i * 13) % 256) };

/** Runs a statement with parameters on the store the previous release migrated. */
type Run = (statement: string, params: unknown[]) => Promise<unknown>;

/** What the previous release wrote: an organisation and two files, their bytes in `content`. */
async function writePreviousRows(run: Run): Promise<void> {
  await run('insert into organizations (id, name) values ($1, $2)', [org, 'files-before-0023']);
  for (const file of [small, large]) {
    await run(
      `insert into files (id, org_id, filename, purpose, bytes, content, created_at, expires_at) values ($1, $2, 'in.jsonl', 'batch', $3, $4, now(), now() + interval '1 day')`,
      [file.id, org, file.bytes.byteLength, file.bytes],
    );
  }
}

const digest = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** Every part of a file, joined. */
async function readAll(db: Database, id: string): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for (let part = await db.files.part(org, id, 0); part; part = await db.files.part(org, id, parts.length)) parts.push(part);
  return new Uint8Array(Buffer.concat(parts));
}

/** The files the previous release wrote, read by this one after its migrations, then deleted. */
async function expectPreviousFilesServed(db: Database): Promise<void> {
  for (const file of [small, large]) {
    expect(await db.files.get(org, file.id)).toMatchObject({ id: file.id, bytes: file.bytes.byteLength, purpose: 'batch' });
    expect(await db.files.part(org, file.id, 1)).toBeUndefined();
    expect(digest(await readAll(db, file.id))).toBe(digest(file.bytes));
  }
  expect((await db.files.list(org, { limit: 10, order: 'asc' })).data.map((file) => file.id).sort()).toEqual([large.id, small.id]);
  expect(await db.files.delete(org, small.id)).toBe(true);
  expect(await db.files.get(org, small.id)).toBeUndefined();
}

const url = process.env.TEST_DATABASE_URL;
const reachable = url ? (await checkPostgres(url)) === undefined : false;

describe('files the release before 0023 wrote (bytes whole in files.content)', () => {
  it('are served by this release on the embedded store', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'svc-files-0022-'));
    const upTo = await migrationsUpTo(PREVIOUS_MIGRATION);
    try {
      const pg = await openPglite(dir);
      try {
        await migratePglite(pg, { migrationsFolder: upTo.folder, schema: undefined });
        await writePreviousRows((statement, params) => pg.query(statement, params));
      } finally {
        await pg.close();
      }
      const db = await createDb({ dataDir: dir });
      try {
        await expectPreviousFilesServed(db);
      } finally {
        await db.close();
      }
    } finally {
      await upTo.remove();
      await rm(dir, { recursive: true, force: true });
    }
  }, 300_000);

  it.runIf(reachable)('are served by this release on PostgreSQL', async () => {
    const schema = randomSchemaName();
    afterAll(() => dropSchema(url!, schema));
    const upTo = await migrationsUpTo(PREVIOUS_MIGRATION);
    const sql = postgres(url!, { max: 1, onnotice: () => {}, connection: { search_path: schema } });
    try {
      await migratePostgres(sql, { migrationsFolder: upTo.folder, schema });
      await writePreviousRows((statement, params) => sql.unsafe(statement, params as postgres.ParameterOrJSON<never>[]));
    } finally {
      await sql.end();
      await upTo.remove();
    }
    const db = await createDb({ url: url!, schema, poolSize: 2 });
    try {
      await expectPreviousFilesServed(db);
    } finally {
      await db.close();
    }
  }, 300_000);
});
