import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import type { NewAlert } from '../../repositories/alerts.js';
import { createTestOrg, type GetDb } from '../fixtures.js';

const alert = (overrides: Partial<NewAlert> = {}): NewAlert => ({
  orgId: null,
  kind: 'breaker_open',
  severity: 'warning',
  dedupeKey: `breaker:test/${randomUUID()}`,
  subject: 'test/model',
  message: 'Circuit breaker opened.',
  ...overrides,
});

export function alertConformance(getDb: GetDb): void {
  it('raises one firing alert per dedupe key, even when raised concurrently', async () => {
    const db = getDb();
    const key = `slo:${randomUUID()}`;
    const org = await createTestOrg(db);
    const raised = await Promise.all(Array.from({ length: 6 }, () => db.alerts.raise(alert({ dedupeKey: key, orgId: org.id, kind: 'slo_breach', severity: 'critical', details: { compliance: 0.5 } }))));
    const stored = raised.filter((row) => row !== undefined);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ orgId: org.id, kind: 'slo_breach', severity: 'critical', status: 'firing', dedupeKey: key, details: { compliance: 0.5 }, resolvedAt: null });
    expect(stored[0]!.firedAt).toBeInstanceOf(Date);
    expect((await db.alerts.firing('slo_breach')).filter((row) => row.dedupeKey === key)).toHaveLength(1);
  });

  it('resolves once, merging details, and frees the key for the next occurrence', async () => {
    const db = getDb();
    const key = `breaker:${randomUUID()}`;
    const first = await db.alerts.raise(alert({ dedupeKey: key, details: { reason: 'consecutive_failures' } }));
    const resolved = await Promise.all([db.alerts.resolve(key, { resolution: 'closed' }), db.alerts.resolve(key, { resolution: 'closed' })]);
    expect(resolved.filter((row) => row !== undefined)).toHaveLength(1);
    const row = resolved.find((r) => r !== undefined)!;
    expect(row).toMatchObject({ id: first!.id, status: 'resolved', details: { reason: 'consecutive_failures', resolution: 'closed' } });
    expect(row.resolvedAt).toBeInstanceOf(Date);
    expect((await db.alerts.firing()).some((r) => r.dedupeKey === key)).toBe(false);
    const again = await db.alerts.raise(alert({ dedupeKey: key }));
    expect(again?.id).not.toBe(first!.id);
    expect(await db.alerts.resolve(`missing:${randomUUID()}`)).toBeUndefined();
  });

  it('lists newest first: an organisation sees its own and platform-wide alerts; filters by id, severity and status', async () => {
    const db = getDb();
    const [mine, theirs] = await Promise.all([createTestOrg(db), createTestOrg(db)]);
    const own = await db.alerts.raise(alert({ orgId: mine.id, kind: 'limit_spike', severity: 'critical', dedupeKey: `limits:${randomUUID()}` }));
    const foreign = await db.alerts.raise(alert({ orgId: theirs.id, kind: 'limit_spike', dedupeKey: `limits:${randomUUID()}` }));
    const platform = await db.alerts.raise(alert());
    const visible = (await db.alerts.list({ orgId: mine.id, limit: 1000 })).map((row) => row.id);
    expect(visible).toContain(own!.id);
    expect(visible).toContain(platform!.id);
    expect(visible).not.toContain(foreign!.id);
    expect(visible.indexOf(platform!.id)).toBeLessThan(visible.indexOf(own!.id));
    expect((await db.alerts.list({ limit: 1000 })).map((row) => row.id)).toEqual(expect.arrayContaining([own!.id, foreign!.id, platform!.id]));
    expect(await db.alerts.list({ orgId: mine.id, id: own!.id })).toEqual([own]);
    expect(await db.alerts.list({ orgId: mine.id, id: foreign!.id })).toEqual([]);
    expect(await db.alerts.list({ id: 'not-a-uuid' })).toEqual([]);
    const critical = await db.alerts.list({ orgId: mine.id, severity: 'critical', limit: 1000 });
    expect(critical.every((row) => row.severity === 'critical')).toBe(true);
    expect(critical.map((row) => row.id)).toContain(own!.id);
    await db.alerts.resolve(own!.dedupeKey);
    expect((await db.alerts.list({ orgId: mine.id, status: 'firing', limit: 1000 })).map((row) => row.id)).not.toContain(own!.id);
    expect(await db.alerts.list({ orgId: mine.id, limit: 1 })).toHaveLength(1);
  });
}
