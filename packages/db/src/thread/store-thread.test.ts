import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '../create-db.js';
import type { Database } from '../database.js';
import { DbConflictError } from '../errors.js';
import { REPOSITORY_NAMES, createRepositories } from '../repositories/index.js';
import { newUsageEvent } from '../test/fixtures.js';

let db: Database;
let orgId: string;
beforeAll(async () => {
  db = await createDb({ dataDir: 'memory://' });
  orgId = (await db.orgs.create({ name: 'acme' })).id;
  for (let i = 0; i < 40; i++) await db.usage.insertMany(Array.from({ length: 1000 }, (_, j) => newUsageEvent(orgId, { requestId: `req_${i}_${j}` })));
}, 180_000);
afterAll(() => db.close());

describe('the embedded store on its own thread', () => {
  it('reaches every repository by name', () => {
    // The repositories are built from a stand-in driver only to read their names.
    expect([...REPOSITORY_NAMES].sort()).toEqual(Object.keys(createRepositories({} as never)).sort());
  });

  it('keeps the event loop running while a query works: a 1 ms timer fires before a report over 40,000 rows answers', async () => {
    let timerFirst = false;
    let answered = false;
    const timer = new Promise<void>((resolve) =>
      setTimeout(() => {
        timerFirst = !answered;
        resolve();
      }, 1),
    );
    const summary = await db.usage.summary(orgId, new Date(0));
    answered = true;
    await timer;
    expect(summary.requests).toBe(40_000);
    expect(timerFirst).toBe(true);
  });

  it('throws the errors callers test for, across the thread', async () => {
    const error = await db.orgs.create({ name: 'acme' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DbConflictError);
    expect((error as DbConflictError).constraint).toBe('organizations_name_unique');
  });

  it('answers ping, and after close rejects calls as unavailable', async () => {
    const other = await createDb({ dataDir: 'memory://' });
    expect(await other.ping()).toBe(true);
    await other.close();
    const error = await other.orgs.list().catch((e: unknown) => e);
    expect((error as { code?: string }).code).toBe('database_unavailable');
    expect(await other.ping(200)).toBe(false);
  }, 60_000);
});
