import { expect, it } from 'vitest';
import type { NewSlo } from '../../repositories/slos.js';
import { createTestOrg, type GetDb, newDecision, newUsageEvent } from '../fixtures.js';

const HOUR = 3_600_000;

/** An hour boundary in the past: every seeded row falls in a known UTC hour before it. */
function hourBoundary(): Date {
  return new Date(Math.floor(Date.now() / HOUR) * HOUR - HOUR);
}

const slo = (orgId: string, overrides: Partial<NewSlo> = {}): NewSlo => ({ orgId, name: 'api availability', metric: 'availability', threshold: 0.9, target: 0.99, windowDays: 1, ...overrides });

export function sloConformance(getDb: GetDb): void {
  it('creates, replaces by name keeping id and createdAt, lists, gets and deletes', async () => {
    const db = getDb();
    const org = await createTestOrg(db);
    const first = await db.slos.put(slo(org.id));
    expect(first.created).toBe(true);
    expect(first.slo).toMatchObject({ orgId: org.id, name: 'api availability', metric: 'availability', threshold: 0.9, target: 0.99, windowDays: 1 });
    const replaced = await db.slos.put(slo(org.id, { metric: 'latency_p95_ms', threshold: 1500, target: 0.95, windowDays: 30 }));
    expect(replaced.created).toBe(false);
    expect(replaced.slo).toMatchObject({ id: first.slo.id, metric: 'latency_p95_ms', threshold: 1500, target: 0.95, windowDays: 30, createdAt: first.slo.createdAt });
    await db.slos.put(slo(org.id, { name: 'a cache', metric: 'cache_hit_rate', threshold: 0.2 }));
    expect((await db.slos.list(org.id)).map((s) => s.name)).toEqual(['a cache', 'api availability']);
    expect((await db.slos.list()).filter((s) => s.orgId === org.id)).toHaveLength(2);
    expect(await db.slos.get(first.slo.id)).toEqual(replaced.slo);
    expect(await db.slos.get('not-a-uuid')).toBeUndefined();
    const other = await createTestOrg(db);
    expect(await db.slos.delete(other.id, first.slo.id)).toBe(false);
    expect(await db.slos.delete(org.id, first.slo.id)).toBe(true);
    expect(await db.slos.delete(org.id, first.slo.id)).toBe(false);
    expect(await db.slos.list('not-a-uuid')).toEqual([]);
  });

  it('rejects an SLO of an organisation that does not exist', async () => {
    await expect(getDb().slos.put(slo('00000000-0000-4000-8000-000000000000'))).rejects.toThrow();
  });

  it('judges each hour with traffic and the whole window, in SQL', async () => {
    const db = getDb();
    const org = await createTestOrg(db);
    const until = hourBoundary();
    const at = (hoursBefore: number) => new Date(until.getTime() - hoursBefore * HOUR + 10 * 60_000);
    // Hour -1: 3 ok (100, 200, 300 ms) and 1 error; hour -2: 4 ok at 100 ms, 2 of them cache hits, 1 with a fallback;
    // hour -3: only a client that left (no slice); two days ago and after `until`: outside the window.
    await db.decisions.insertMany([
      ...[100, 200, 300].map((latencyMs) => newDecision(org.id, { outcome: 'ok', latencyMs, createdAt: at(1) })),
      newDecision(org.id, { outcome: 'error', latencyMs: 5000, createdAt: at(1) }),
      newDecision(org.id, { outcome: 'ok', latencyMs: 100, source: 'CacheHit', createdAt: at(2) }),
      newDecision(org.id, { outcome: 'ok', latencyMs: 100, source: 'CacheHit', createdAt: at(2) }),
      newDecision(org.id, { outcome: 'ok', latencyMs: 100, attempts: [{ model: 'a' }, { model: 'b' }], createdAt: at(2) }),
      newDecision(org.id, { outcome: 'ok', latencyMs: 100, createdAt: at(2) }),
      newDecision(org.id, { outcome: 'client_closed', latencyMs: 100, createdAt: at(3) }),
      newDecision(org.id, { outcome: 'error', createdAt: at(48) }),
      newDecision(org.id, { outcome: 'error', createdAt: new Date(until.getTime() + 60_000) }),
    ]);
    await db.usage.insertMany([
      newUsageEvent(org.id, { costUsd: 0.03, createdAt: at(1) }),
      newUsageEvent(org.id, { costUsd: 0.01, createdAt: at(1) }),
      newUsageEvent(org.id, { costUsd: 0.002, createdAt: at(2) }),
    ]);
    const stats = (metric: NewSlo['metric'], threshold: number) => db.slos.windowStats({ orgId: org.id, metric, threshold, windowDays: 1 }, until);

    const availability = await stats('availability', 0.9);
    expect(availability).toMatchObject({ slices: 2, goodSlices: 1, until });
    expect(availability.value).toBeCloseTo(7 / 8, 10);
    expect(availability.since.getTime()).toBe(until.getTime() - 86_400_000);
    expect(await stats('error_rate', 0.25)).toMatchObject({ slices: 2, goodSlices: 2, value: 1 / 8 });
    // p95 of 100, 200, 300 (continuous) is 290; of the window's seven successes 270.
    const p95 = await stats('latency_p95_ms', 250);
    expect(p95).toMatchObject({ slices: 2, goodSlices: 1 });
    expect(p95.value).toBeCloseTo(270, 6);
    expect((await stats('latency_p50_ms', 100)).goodSlices).toBe(1);
    expect((await stats('latency_p99_ms', 300)).goodSlices).toBe(2);
    expect(await stats('cache_hit_rate', 0.5)).toMatchObject({ slices: 2, goodSlices: 1, value: 2 / 8 });
    expect(await stats('fallback_rate', 0.25)).toMatchObject({ slices: 2, goodSlices: 2, value: 1 / 8 });
    const cost = await stats('cost_per_request_usd', 0.005);
    expect(cost).toMatchObject({ slices: 2, goodSlices: 1 });
    expect(cost.value).toBeCloseTo(0.042 / 8, 12);
  });

  it('has no slices and no value without traffic', async () => {
    const db = getDb();
    const org = await createTestOrg(db);
    expect(await db.slos.windowStats({ orgId: org.id, metric: 'availability', threshold: 0.99, windowDays: 7 }, new Date())).toMatchObject({ slices: 0, goodSlices: 0, value: null });
    expect(await db.slos.windowStats({ orgId: org.id, metric: 'cost_per_request_usd', threshold: 1, windowDays: 7 }, new Date())).toMatchObject({ slices: 0, value: null });
  });
}
