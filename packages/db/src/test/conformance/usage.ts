import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { createTestOrg, type GetDb, newUsageEvent } from '../fixtures.js';

const usageEvent = newUsageEvent;

export function usageConformance(getDb: GetDb): void {
  it('inserts the same request id once', async () => {
    const db = getDb();
    const org = await createTestOrg(db);
    const event = usageEvent(org.id, { keyId: 'key_a', cachedTokens: 20, cacheHit: true, stream: true, usageEstimated: true });
    expect(await db.usage.insertMany([event])).toBe(1);
    expect(await db.usage.insertMany([event, { ...event, costUsd: 99 }])).toBe(0);
    const rows = await db.usage.listByOrg(org.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ ...event, costUsd: 0.001 });
    expect(rows[0]!.createdAt).toBeInstanceOf(Date);
    expect(await db.usage.insertMany([])).toBe(0);
  });

  it("keeps one row per batch line: a later attempt replaces it, a replayed earlier one does not", async () => {
    const db = getDb();
    const org = await createTestOrg(db);
    const at = (second: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, second));
    const first = usageEvent(org.id, { requestId: 'req_line_0', completionTokens: 3, costUsd: 0.1, tags: { batch_id: 'batch_a' }, createdAt: at(1) });
    const second = { ...first, completionTokens: 9, costUsd: 0.3, createdAt: at(2) };
    expect(await db.usage.insertMany([first])).toBe(1);
    expect(await db.usage.insertMany([second])).toBe(1);
    expect(await db.usage.insertMany([first])).toBe(0);
    // Both attempts drained in one statement: the later is kept.
    const other = usageEvent(org.id, { requestId: 'req_line_1', tags: { batch_id: 'batch_a' }, createdAt: at(1) });
    expect(await db.usage.insertMany([{ ...other, createdAt: at(5), costUsd: 0.5 }, other])).toBe(1);
    const rows = await db.usage.listByOrg(org.id);
    expect(rows.map((row) => [row.requestId, row.costUsd, row.completionTokens])).toEqual(
      expect.arrayContaining([
        ['req_line_0', 0.3, 9],
        ['req_line_1', 0.5, expect.any(Number)],
      ]),
    );
    expect(rows).toHaveLength(2);
    // Outside batches the first row stays whatever comes later under its id.
    const plain = usageEvent(org.id, { requestId: 'req_plain', costUsd: 0.1, createdAt: at(1) });
    await db.usage.insertMany([plain]);
    expect(await db.usage.insertMany([{ ...plain, costUsd: 7, createdAt: at(9) }])).toBe(0);
  });

  it('groups spend by a metadata tag and exports rows page by page, filtered', async () => {
    const db = getDb();
    const org = await createTestOrg(db);
    const at = (second: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, second));
    await db.usage.insertMany([
      usageEvent(org.id, { keyId: 'key_a', model: 'm/a', costUsd: 0.3, tags: { team: 'search', feature: 'x' }, createdAt: at(1) }),
      // A batch line billed at half its interactive price.
      usageEvent(org.id, { keyId: 'key_b', model: 'm/b', costUsd: 0.2, interactiveCostUsd: 0.4, tags: { team: 'search' }, createdAt: at(2) }),
      usageEvent(org.id, { keyId: 'key_a', model: 'm/a', costUsd: 0.4, tags: { team: 'ads' }, createdAt: at(3) }),
      usageEvent(org.id, { keyId: 'key_a', model: 'm/a', costUsd: 0.05, createdAt: at(4) }),
    ]);
    const groups = await db.usage.byTag(org.id, 'team');
    expect(groups.map((g) => [g.value, g.requests])).toEqual([['search', 2], ['ads', 1], [null, 1]]);
    expect(groups[0]!.costUsd).toBeCloseTo(0.5, 9);
    // A row billed at interactive prices counts its cost there.
    expect(groups[0]!.interactiveCostUsd).toBeCloseTo(0.7, 9);
    expect(groups[1]!.interactiveCostUsd).toBeCloseTo(0.4, 9);
    expect((await db.usage.byTag(org.id, 'team', { since: at(3) })).map((g) => g.value)).toEqual(['ads', null]);
    const first = await db.usage.exportPage({ orgId: org.id }, 2);
    expect(first.map((row) => row.costUsd)).toEqual([0.3, 0.2]);
    expect(first.map((row) => row.interactiveCostUsd)).toEqual([null, 0.4]);
    const next = await db.usage.exportPage({ orgId: org.id }, 2, first[1]);
    expect(next.map((row) => row.costUsd)).toEqual([0.4, 0.05]);
    expect(next[1]!.tags).toBeNull();
    expect((await db.usage.exportPage({ orgId: org.id, tag: { key: 'team', value: 'search' }, keyId: 'key_b' }, 10)).map((row) => row.model)).toEqual(['m/b']);
    expect(await db.usage.exportPage({ orgId: org.id, tag: { key: 'feature' }, model: 'm/a', until: at(2) }, 10)).toHaveLength(1);
    expect(await db.usage.exportPage({ orgId: 'not-a-uuid' }, 10)).toEqual([]);
  });

  it('fills defaults for optional fields', async () => {
    const db = getDb();
    const org = await createTestOrg(db);
    await db.usage.insertMany([usageEvent(org.id)]);
    expect((await db.usage.listByOrg(org.id))[0]).toMatchObject({
      keyId: null,
      cachedTokens: 0,
      cacheHit: false,
      stream: false,
      usageEstimated: false,
    });
  });

  it('summarises tokens, costs and cache hits since a point in time', async () => {
    const db = getDb();
    const org = await createTestOrg(db);
    const since = new Date('2025-06-01T00:00:00Z');
    await db.usage.insertMany([
      usageEvent(org.id, { promptTokens: 10, completionTokens: 5, costUsd: 0.1, baselineCostUsd: 0.3 }),
      usageEvent(org.id, {
        promptTokens: 7,
        completionTokens: 3,
        cachedTokens: 7,
        costUsd: 0.2,
        baselineCostUsd: 0.4,
        cacheHit: true,
        createdAt: since,
      }),
      usageEvent(org.id, { promptTokens: 1000, costUsd: 50, createdAt: new Date('2025-05-31T23:59:59Z') }),
    ]);
    const other = await createTestOrg(db);
    await db.usage.insertMany([usageEvent(other.id, { promptTokens: 500, costUsd: 9 })]);

    const summary = await db.usage.summary(org.id, since);
    expect(summary).toMatchObject({
      requests: 2,
      promptTokens: 17,
      completionTokens: 8,
      cachedTokens: 7,
      totalTokens: 25,
      cacheHits: 1,
    });
    expect(summary.costUsd).toBeCloseTo(0.3, 10);
    expect(summary.baselineCostUsd).toBeCloseTo(0.7, 10);
    expect(await db.usage.summary(randomUUID(), since)).toMatchObject({ requests: 0, costUsd: 0 });
  });

  it('lists newest first with since and limit', async () => {
    const db = getDb();
    const org = await createTestOrg(db);
    const at = (day: number) => new Date(Date.UTC(2025, 0, day));
    await db.usage.insertMany([1, 2, 3, 4].map((day) => usageEvent(org.id, { requestId: `d${day}-${org.id}`, createdAt: at(day) })));
    const page = await db.usage.listByOrg(org.id, { since: at(2), limit: 2 });
    expect(page.map((e) => e.createdAt)).toEqual([at(4), at(3)]);
    expect(await db.usage.listByOrg('not-a-uuid')).toEqual([]);
  });

  it('inserts large batches and counts only new rows', async () => {
    const db = getDb();
    const org = await createTestOrg(db);
    const events = Array.from({ length: 1200 }, () => usageEvent(org.id));
    expect(await db.usage.insertMany(events.slice(0, 100))).toBe(100);
    expect(await db.usage.insertMany(events)).toBe(1100);
    expect((await db.usage.summary(org.id, new Date(0))).requests).toBe(1200);
  });
}
