import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import type { NewUsageEvent } from '../../types.js';
import { createTestOrg, type GetDb } from '../fixtures.js';

function event(orgId: string, createdAt: Date, overrides: Partial<NewUsageEvent> = {}): NewUsageEvent {
  return {
    requestId: `req_${randomUUID()}`,
    orgId,
    model: 'openai/gpt-4o-mini',
    provider: 'openai',
    promptTokens: 10,
    completionTokens: 5,
    costUsd: 0.01,
    baselineCostUsd: 0.04,
    latencyMs: 100,
    status: 200,
    createdAt,
    ...overrides,
  };
}

export function dashboardUsageConformance(getDb: GetDb): void {
  // Each test uses its own year so the fleet-wide figures see only its rows.
  it('buckets an organisation by hour, empty hours included, and totals the window', async () => {
    const db = getDb();
    const org = await createTestOrg(db);
    const other = await createTestOrg(db);
    const at = (hour: number, minute = 0) => new Date(Date.UTC(2011, 2, 4, hour, minute));
    await db.usage.insertMany([
      event(org.id, at(10, 5), { latencyMs: 100 }),
      event(org.id, at(10, 59), { latencyMs: 300, cacheHit: true, costUsd: 0, baselineCostUsd: 0.04 }),
      event(org.id, at(12, 30), { latencyMs: 900, status: 502, costUsd: 0, baselineCostUsd: 0 }),
      event(org.id, at(9, 59)),
      event(other.id, at(10, 10), { costUsd: 5 }),
    ]);
    const series = await db.dashboard.usageSeries({ orgId: org.id, since: at(10, 20), until: at(13), bucket: 'hour' });
    expect(series.map((p) => p.start)).toEqual([at(10), at(11), at(12)]);
    // since is inclusive at the instant given, not the bucket start: 10:05 is out.
    expect(series[0]).toMatchObject({ requests: 1, errors: 0, cacheHits: 1, cacheHitRate: 1, latencyP50Ms: 300, totalTokens: 15 });
    expect(series[1]).toMatchObject({ requests: 0, costUsd: 0, cacheHitRate: null, latencyP50Ms: null, latencyP95Ms: null });
    // Latency percentiles count answered requests only; the 502 counts as an error.
    expect(series[2]).toMatchObject({ requests: 1, errors: 1, latencyP50Ms: null });

    const totals = await db.dashboard.usageTotals({ orgId: org.id, since: at(10), until: at(13) });
    expect(totals).toMatchObject({ requests: 3, errors: 1, cacheHits: 1, latencyP50Ms: 200 });
    expect(totals.cacheHitRate).toBeCloseTo(1 / 3, 10);
    expect(totals.costUsd).toBeCloseTo(0.01, 10);
    expect(totals.baselineCostUsd).toBeCloseTo(0.08, 10);
    expect(totals.savingsUsd).toBeCloseTo(0.07, 10);
    expect(totals.latencyP95Ms).toBeCloseTo(290, 6);
  });

  it('counts a request with several ledger rows (voice steps, realtime minutes) once, at its longest latency', async () => {
    const db = getDb();
    const org = await createTestOrg(db);
    const at = (minute: number) => new Date(Date.UTC(2013, 4, 6, 10, minute));
    await db.usage.insertMany([
      // A realtime session of 2.5 minutes: a row per started minute, then its own row.
      event(org.id, at(0), { requestId: 'req_rt:minute-1', latencyMs: 0, status: 101, promptTokens: 0, completionTokens: 0, costUsd: 0.002, baselineCostUsd: 0.002 }),
      event(org.id, at(1), { requestId: 'req_rt:minute-2', latencyMs: 60_000, status: 101, costUsd: 0.003, baselineCostUsd: 0.003 }),
      event(org.id, at(2), { requestId: 'req_rt', latencyMs: 150_000, status: 101, costUsd: 0, baselineCostUsd: 0 }),
      event(org.id, at(3), { latencyMs: 100 }),
    ]);
    const totals = await db.dashboard.usageTotals({ orgId: org.id, since: at(0), until: at(10) });
    expect(totals).toMatchObject({ requests: 2, errors: 0, totalTokens: 45 });
    expect(totals.costUsd).toBeCloseTo(0.015, 10);
    expect(totals.latencyP50Ms).toBeCloseTo((100 + 150_000) / 2, 6);
    const [hour] = await db.dashboard.usageSeries({ orgId: org.id, since: at(0), until: at(10), bucket: 'hour' });
    expect(hour).toMatchObject({ requests: 2, totalTokens: 45 });
  });

  it('buckets the fleet by UTC day and ignores org ids that cannot match', async () => {
    const db = getDb();
    const [a, b] = [await createTestOrg(db), await createTestOrg(db)];
    const day = (d: number, hour = 12) => new Date(Date.UTC(2012, 6, d, hour));
    await db.usage.insertMany([event(a.id, day(1, 0)), event(b.id, day(1, 23)), event(b.id, day(3)), event(a.id, day(5))]);
    const series = await db.dashboard.usageSeries({ since: day(1, 6), until: day(4, 0), bucket: 'day' });
    expect(series.map((p) => [p.start.toISOString(), p.requests])).toEqual([
      ['2012-07-01T00:00:00.000Z', 1],
      ['2012-07-02T00:00:00.000Z', 0],
      ['2012-07-03T00:00:00.000Z', 1],
    ]);
    expect((await db.dashboard.usageTotals({ since: day(1, 0), until: day(6, 0) })).requests).toBe(4);
    expect((await db.dashboard.usageTotals({ orgId: 'nope', since: day(1, 0), until: day(6, 0) })).requests).toBe(0);
    expect((await db.dashboard.usageSeries({ orgId: 'nope', since: day(1, 0), until: day(2, 0), bucket: 'day' })).map((p) => p.requests)).toEqual([0]);
  });
}
