import postgres from 'postgres';
import { afterAll, describe, it } from 'vitest';
import { createDb } from './create-db.js';
import type { Database } from './database.js';
import { checkPostgres, dropSchema, randomSchemaName } from './test/index.js';
import { runDbConformance } from './test/run-db-conformance.js';

runDbConformance('pglite (in-memory)', () => createDb());

/** The store migrated into `schema`, then expanded as a later release's expand-only migrations may. */
async function expandedSchema(url: string, schema: string): Promise<Database> {
  const db = await createDb({ url, schema, poolSize: 4 });
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const tables = await sql<{ name: string }[]>`select table_name as name from information_schema.tables where table_schema = ${schema} and table_type = 'BASE TABLE'`;
    for (const { name } of tables) {
      await sql.unsafe(`alter table "${schema}"."${name}" add column "next_release_note" text, add column "next_release_flag" boolean not null default false`);
    }
    await sql.unsafe(`create table "${schema}"."next_release_table" ("id" text primary key)`);
  } finally {
    await sql.end();
  }
  return db;
}

const pgUrl = process.env.TEST_DATABASE_URL;
if (pgUrl) {
  const problem = await checkPostgres(pgUrl);
  if (problem === undefined) {
    const schema = randomSchemaName();
    runDbConformance('postgres', () => createDb({ url: pgUrl, schema, poolSize: 4 }));
    afterAll(() => dropSchema(pgUrl, schema));
    // A rolling deploy runs this release's code on the next release's schema, which may only
    // have expanded (migration-policy.ts): every table gains columns and a table appears.
    const expanded = randomSchemaName();
    runDbConformance("postgres, on a later release's expanded schema (rolling deploy)", () => expandedSchema(pgUrl, expanded));
    afterAll(() => dropSchema(pgUrl, expanded));
  } else if (process.env.CI === 'true') {
    describe('postgres', () => {
      it('is reachable at TEST_DATABASE_URL', () => {
        throw new Error(`TEST_DATABASE_URL is set but unreachable: ${problem}`);
      });
    });
  } else {
    describe.skip(`postgres (TEST_DATABASE_URL unreachable: ${problem})`, () => {
      it('conformance', () => {});
    });
  }
}
