import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createDb } from '../create-db.js';
import type { Database } from '../database.js';
import { DbConflictError } from '../errors.js';
import { createRepositories } from '../repositories/index.js';
import { REPOSITORY_NAMES } from '../repositories/repository-names.js';
import { encodeRow } from '../row-intake.js';
import { newDecision, newUsageEvent } from '../test/fixtures.js';
import { HAND_OFF_ROWS } from './store-thread.js';

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

  it('hands a long batch over in slices of at most HAND_OFF_ROWS rows, the loop free between them, and writes it in one call', async () => {
    const other = await createDb({ dataDir: 'memory://' });
    const org = (await other.orgs.create({ name: 'slices' })).id;
    const rows = Array.from({ length: HAND_OFF_ROWS * 3 + 5 }, (_, i) => newUsageEvent(org, { requestId: `slice_${i}` }));
    const posted = vi.spyOn(Worker.prototype, 'postMessage');
    let turns = 0;
    const ticking = setInterval(() => turns++, 0);
    try {
      // Two copies of the last row: the one statement skips the repeated request id, as before.
      expect(await other.usage.insertMany([...rows, rows.at(-1)!])).toBe(rows.length);
      const sizes = posted.mock.calls.map(([message]) => {
        const m = message as { rows?: unknown[]; args?: unknown[][] };
        return (m.rows ?? m.args?.[0] ?? []).length;
      });
      expect(sizes).toEqual([HAND_OFF_ROWS, HAND_OFF_ROWS, HAND_OFF_ROWS, 6]);
      expect(turns).toBeGreaterThan(0);
      expect((await other.usage.summary(org, new Date(0))).requests).toBe(rows.length);
      // A short batch is one message, as it was.
      posted.mockClear();
      expect(await other.usage.insertMany([newUsageEvent(org)])).toBe(1);
      expect(posted).toHaveBeenCalledTimes(1);
    } finally {
      clearInterval(ticking);
      posted.mockRestore();
      await other.close();
    }
  }, 60_000);

  it('takes the rows handed in one turn in one message, and has them in the store once settled', async () => {
    const posted = vi.spyOn(Worker.prototype, 'postMessage');
    try {
      const usage = Array.from({ length: 3 }, (_, i) => newUsageEvent(orgId, { requestId: `handed_${i}` }));
      for (const row of usage) db.intake.hand('usage', encodeRow(row));
      db.intake.hand('decision', encodeRow(newDecision(orgId, { requestId: 'handed_0' })));
      await new Promise((resolve) => setImmediate(resolve));
      const rows = posted.mock.calls.map(([message]) => message as { kind: string; usage?: string[]; decisions?: string[] }).filter((m) => m.kind === 'rows');
      expect(rows.map((m) => [m.usage?.length, m.decisions?.length])).toEqual([[3, 1]]);
      await db.intake.settle();
      expect((await db.usage.listByOrg(orgId, { limit: 100_000 })).filter((row) => row.requestId.startsWith('handed_'))).toHaveLength(3);
      expect((await db.decisions.get('handed_0'))?.orgId).toBe(orgId);
    } finally {
      posted.mockRestore();
    }
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
