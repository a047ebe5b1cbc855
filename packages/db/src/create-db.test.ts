import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { createDb } from './create-db.js';
import { defaultMigrationsFolder } from './migrate.js';
import { checkPostgres, dropSchema, randomSchemaName } from './test/index.js';

describe('createDb', () => {
  it('persists to a data directory it creates, and reopens without re-migrating', async () => {
    const root = await mkdtemp(join(tmpdir(), 'svc-db-'));
    const dataDir = join(root, 'nested', 'pglite');
    try {
      const first = await createDb({ dataDir });
      expect(first.kind).toBe('pglite');
      const org = await first.orgs.create({ name: 'persisted', rpmLimit: 5 });
      await first.close();
      expect(await first.ping(500)).toBe(false);

      const second = await createDb({ dataDir });
      expect(await second.orgs.get(org.id)).toEqual(org);
      expect(await second.orgs.list()).toHaveLength(1);
      await second.close();
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  }, 60_000);

  it('rejects unsupported URLs and schema names before connecting', async () => {
    await expect(createDb({ url: 'mysql://localhost/db' })).rejects.toThrow(/postgres:\/\//);
    await expect(createDb({ schema: 'Robert"; drop' })).rejects.toThrow(/invalid schema name/);
  });

  it('ping answers false when the server is unreachable', async () => {
    const db = await createDb({ url: 'postgres://postgres@127.0.0.1:1/none', migrate: false });
    expect(db.kind).toBe('postgres');
    expect(await db.ping(1000)).toBe(false);
    await db.close();
  });

  it('ships schema-agnostic migrations next to the module', async () => {
    const folder = defaultMigrationsFolder();
    const journal = JSON.parse(await readFile(join(folder, 'meta', '_journal.json'), 'utf8')) as {
      entries: { tag: string }[];
    };
    expect(journal.entries.length).toBeGreaterThan(0);
    for (const file of (await readdir(folder)).filter((name) => name.endsWith('.sql'))) {
      // A qualified "public". would escape createDb({ schema }); run `pnpm db:generate`.
      expect(await readFile(join(folder, file), 'utf8')).not.toContain('"public".');
    }
  });
});

const pgUrl = process.env.TEST_DATABASE_URL;
const reachable = pgUrl !== undefined && (await checkPostgres(pgUrl)) === undefined;

// Unreachability is reported (and fails CI) by db.test.ts; here we only skip.
describe.skipIf(!reachable)('createDb on PostgreSQL', () => {
  const url = pgUrl!;
  const schemas: string[] = [];
  afterAll(async () => {
    await Promise.all(schemas.map((schema) => dropSchema(url, schema)));
  });

  it('applies migrations once when several instances start at the same time', async () => {
    const schema = randomSchemaName();
    schemas.push(schema);
    const dbs = await Promise.all(Array.from({ length: 4 }, () => createDb({ url, schema, poolSize: 2 })));
    try {
      const org = await dbs[0]!.orgs.create({ name: 'shared' });
      expect(await dbs[3]!.orgs.get(org.id)).toEqual(org);
      const sql = postgres(url, { max: 1, onnotice: () => {} });
      const rows = await sql`select count(*)::int as n from ${sql(schema)}.__drizzle_migrations`;
      await sql.end();
      const journal = JSON.parse(
        await readFile(join(defaultMigrationsFolder(), 'meta', '_journal.json'), 'utf8'),
      ) as { entries: unknown[] };
      expect(rows[0]?.n).toBe(journal.entries.length);
    } finally {
      await Promise.all(dbs.map((db) => db.close()));
    }
  }, 60_000);

  it('never lets a failed query carry the values it was sent (they reach warnings)', async () => {
    const schema = randomSchemaName();
    schemas.push(schema);
    const db = await createDb({ url, schema, poolSize: 1 });
    try {
      // PostgreSQL refuses U+0000 in text: the query fails with the value among its params.
      const secret = 'my private prompt text';
      const error = (await db.orgs.create({ name: `${secret}\u0000` }).then(
        () => undefined,
        (failure: unknown) => failure,
      )) as Error;
      expect(error).toBeInstanceOf(Error);
      const chain: string[] = [];
      for (let e: unknown = error; e instanceof Error; e = e.cause) chain.push(e.message, e.stack ?? '', String((e as { params?: unknown }).params ?? ''));
      expect(chain.join('\n')).not.toContain(secret);
      expect(error.message).toContain('Failed query:');
    } finally {
      await db.close();
    }
  }, 60_000);

  it('keeps schemas isolated', async () => {
    const [a, b] = [randomSchemaName(), randomSchemaName()];
    schemas.push(a, b);
    const dbA = await createDb({ url, schema: a, poolSize: 1 });
    const dbB = await createDb({ url, schema: b, poolSize: 1 });
    try {
      await dbA.orgs.create({ name: 'only-in-a' });
      expect(await dbB.orgs.getByName('only-in-a')).toBeUndefined();
    } finally {
      await Promise.all([dbA.close(), dbB.close()]);
    }
  }, 60_000);
});
