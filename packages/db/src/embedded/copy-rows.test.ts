import type { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultMigrationsFolder, migratePglite } from '../migrate.js';
import { openPglite } from '../pglite-start.js';
import { createRepositories } from '../repositories/index.js';
import type { RowTables } from '../row-intake.js';
import { newDecision, newUsageEvent } from '../test/fixtures.js';
import { copyFirst } from './copy-rows.js';

const org = '00000000-0000-4000-8000-0000000c0de5';
const at = (second: number) => new Date(Date.UTC(2026, 11, 5, 4, 0, second, 250));

/** Rows whose text needs COPY's escapes, nulls beside empty strings and a literal `\\N`, JSON columns, figures that print long. */
function awkwardRows() {
  const usage = [
    newUsageEvent(org, { requestId: 'u-plain', createdAt: at(1) }),
    newUsageEvent(org, { requestId: 'u-quoted', model: 'a "quoted", comma\nnewline\r\ttab \\ back\\slash model', endUser: '', keyId: '\\N', tags: { team: 'x,"y"\t\\.', emoji: '😀 é' }, createdAt: at(2) }),
    newUsageEvent(org, { requestId: 'u-figures', costUsd: 0.1 + 0.2, baselineCostUsd: 1e-7, interactiveCostUsd: 0, cachedTokens: 3, memoryInjected: 0, cacheHit: true, createdAt: at(3) }),
  ];
  const decisions = [
    newDecision(org, { requestId: 'u-plain', createdAt: at(1) }),
    newDecision(org, { requestId: 'u-quoted', requestedModel: '', tier: 'a,b', attempts: [{ note: 'say "hi"\n' }], details: { nested: { list: [1, null, 'two'] } }, createdAt: at(2) }),
  ];
  return { usage, decisions };
}

/** The repositories' tables, counting the batches that went their way. */
function counted(tables: RowTables, batches: { otherWay: number }): RowTables {
  const count = <T>(insert: (rows: T) => Promise<number>) => (rows: T) => {
    batches.otherWay += 1;
    return insert(rows);
  };
  return { usage: { insertMany: count(tables.usage.insertMany) }, decisions: { insertMany: count(tables.decisions.insertMany) } };
}

async function openStore(): Promise<{ client: PGlite; tables: RowTables; batches: { otherWay: number }; dump: () => Promise<unknown[]> }> {
  const client = await openPglite(undefined);
  await migratePglite(client, { migrationsFolder: defaultMigrationsFolder(), schema: undefined });
  const repositories = createRepositories(drizzle(client));
  const dump = async () => [
    (await client.query('select * from usage_events order by request_id')).rows,
    (await client.query('select * from routing_decisions order by request_id')).rows,
  ];
  const batches = { otherWay: 0 };
  return { client, tables: copyFirst(client, counted(repositories, batches)), batches, dump };
}

describe('the embedded intake tables (COPY first)', () => {
  let copied: Awaited<ReturnType<typeof openStore>>;
  let inserted: Awaited<ReturnType<typeof openStore>>;
  const repositoriesOf = (store: { client: PGlite }) => createRepositories(drizzle(store.client));

  beforeAll(async () => {
    copied = await openStore();
    inserted = await openStore();
  }, 60_000);
  afterAll(async () => {
    await copied?.client.close();
    await inserted?.client.close();
  });

  it('stores exactly what the repositories insert, and a replayed or overlapping batch once', async () => {
    const { usage, decisions } = awkwardRows();
    await copied.tables.usage.insertMany(usage);
    await copied.tables.decisions.insertMany(decisions);
    await repositoriesOf(inserted).usage.insertMany(usage);
    await repositoriesOf(inserted).decisions.insertMany(decisions);
    expect(await copied.dump()).toEqual(await inserted.dump());
    expect(copied.batches.otherWay).toBe(0);

    // A journal replayed after a kill: the same rows again, then old and new rows together.
    const later = newUsageEvent(org, { requestId: 'u-later', createdAt: at(4) });
    for (const store of [copied, inserted]) {
      const tables = store === copied ? store.tables : repositoriesOf(store);
      await tables.usage.insertMany(usage);
      await tables.usage.insertMany([...usage, later]);
      await tables.decisions.insertMany([...decisions, newDecision(org, { requestId: 'u-later', createdAt: at(4) })].reverse());
    }
    const [usageRows, decisionRows] = (await copied.dump()) as { request_id: string }[][];
    expect(usageRows?.map((row) => row.request_id)).toEqual(['u-figures', 'u-later', 'u-plain', 'u-quoted']);
    expect(decisionRows?.map((row) => row.request_id)).toEqual(['u-later', 'u-plain', 'u-quoted']);
    expect(await copied.dump()).toEqual(await inserted.dump());
    expect(copied.batches.otherWay).toBe(3);
  });

  it('replaces a batch line by its later attempt, and keeps the store now() for a row without a time, as the repositories do', async () => {
    const first = newUsageEvent(org, { requestId: 'line-1', tags: { batch_id: 'batch_a' }, status: 500, createdAt: at(10) });
    await copied.tables.usage.insertMany([first]);
    await copied.tables.usage.insertMany([{ ...first, status: 200, createdAt: at(11) }]);
    await copied.tables.decisions.insertMany([newDecision(org, { requestId: 'no-time' })]);
    const line = await copied.client.query<{ status: number }>(`select status from usage_events where request_id = 'line-1'`);
    expect(line.rows).toEqual([{ status: 200 }]);
    const timed = await copied.client.query<{ recent: boolean }>(`select created_at > now() - interval '1 minute' as recent from routing_decisions where request_id = 'no-time'`);
    expect(timed.rows).toEqual([{ recent: true }]);
  });

  it('fails as the repositories fail on a row neither can store (a lone surrogate), writing nothing of its batch', async () => {
    const bad = [newUsageEvent(org, { requestId: 'bad-ok', createdAt: at(20) }), newUsageEvent(org, { requestId: 'bad-half', model: 'x\ud800y', createdAt: at(20) })];
    const copiedError = await copied.tables.usage.insertMany(bad).then(() => undefined, (error: Error) => error.message);
    const insertedError = await repositoriesOf(inserted).usage.insertMany(bad).then(() => undefined, (error: Error) => error.message);
    expect(copiedError).toBe(insertedError);
    const left = await copied.client.query(`select 1 from usage_events where request_id like 'bad-%'`);
    expect(left.rows.length).toBe((await inserted.client.query(`select 1 from usage_events where request_id like 'bad-%'`)).rows.length);
  });
});
