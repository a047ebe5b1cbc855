import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ReportTestContext, json, startReportRuntime } from './admin-routing-test-kit.js';
import { expectBearer, expectInvalid, keyWith } from './control-test-kit.js';

let ctx: ReportTestContext;
beforeAll(async () => {
  ctx = await startReportRuntime({ SVC_ALERTS_INTERVAL_MS: '0' });
});
afterAll(async () => {
  await ctx?.runtime.close();
});

interface AlertWire {
  id: string;
  object: string;
  org_id: string | null;
  kind: string;
  severity: string;
  status: string;
  subject: string;
  message: string;
  fired_at: string;
  resolved_at: string | null;
}
type History = { object: string; data: AlertWire[] };

const raise = (orgId: string | null, severity: 'info' | 'warning' | 'critical', subject = randomUUID()) =>
  ctx.runtime.db.alerts.raise({ orgId, kind: orgId === null ? 'breaker_open' : 'slo_breach', severity, dedupeKey: `test:${randomUUID()}`, subject, message: `alert ${subject}` });

describe('GET /v1/alerts/history', () => {
  it('needs a key (401) with observability:read (403)', async () => {
    await expectBearer(ctx, '/v1/alerts/history', 'observability:read');
  });

  it('validates alert_id, severity, status and limit, naming each (400); a limit above 1000 is capped', async () => {
    for (const [query, param] of [
      ['alert_id=42', 'alert_id'],
      ['severity=panic', 'severity'],
      ['status=open', 'status'],
      ['limit=0', 'limit'],
      ['limit=ten', 'limit'],
      ['limit=1.5', 'limit'],
    ] as const) {
      await expectInvalid(await ctx.request(`/v1/alerts/history?${query}`), param, query);
    }
    expect((await ctx.request('/v1/alerts/history?limit=5000')).status).toBe(200);
  });

  it('lists the caller’s organisation’s and platform-wide alerts, newest first; an admin sees all', async () => {
    const { org, key } = await keyWith(ctx, ['observability:read']);
    const other = await ctx.org('other');
    const mine = await raise(org.id, 'critical');
    const theirs = await raise(other.id, 'critical');
    const platform = await raise(null, 'warning');
    const seen = await json<History>(await ctx.request('/v1/alerts/history', { key }));
    expect(seen.object).toBe('list');
    const ids = seen.data.map((alert) => alert.id);
    expect(ids).toEqual(expect.arrayContaining([mine!.id, platform!.id]));
    expect(ids).not.toContain(theirs!.id);
    expect(ids.indexOf(platform!.id)).toBeLessThan(ids.indexOf(mine!.id));
    expect(seen.data.find((alert) => alert.id === mine!.id)).toMatchObject({ object: 'alert', org_id: org.id, kind: 'slo_breach', severity: 'critical', status: 'firing', resolved_at: null });
    const all = await json<History>(await ctx.request('/v1/alerts/history?limit=1000'));
    expect(all.data.map((alert) => alert.id)).toEqual(expect.arrayContaining([mine!.id, theirs!.id, platform!.id]));

    expect((await json<History>(await ctx.request(`/v1/alerts/history?alert_id=${mine!.id}`, { key }))).data.map((a) => a.id)).toEqual([mine!.id]);
    expect((await json<History>(await ctx.request(`/v1/alerts/history?alert_id=${theirs!.id}`, { key }))).data).toEqual([]);
    const warnings = await json<History>(await ctx.request('/v1/alerts/history?severity=warning', { key }));
    expect(warnings.data.length).toBeGreaterThan(0);
    expect(warnings.data.every((alert) => alert.severity === 'warning')).toBe(true);
    expect((await json<History>(await ctx.request('/v1/alerts/history?limit=1', { key }))).data).toHaveLength(1);
    await ctx.runtime.db.alerts.resolve(mine!.dedupeKey);
    const resolved = await json<History>(await ctx.request(`/v1/alerts/history?status=resolved&alert_id=${mine!.id}`, { key }));
    expect(resolved.data[0]).toMatchObject({ status: 'resolved', resolved_at: expect.any(String) });
  });

  it('answers ?org_id= of another organisation 403 tenant_violation for a non-admin key; an admin gets that organisation', async () => {
    const { org, key } = await keyWith(ctx, ['observability:read']);
    const other = await ctx.org('other');
    const theirs = await raise(other.id, 'critical');
    const refused = await ctx.request(`/v1/alerts/history?org_id=${other.id}`, { key });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('x-error-id')).toBeTruthy();
    expect(await refused.json()).toMatchObject({ error: { code: 'tenant_violation' } });
    expect((await ctx.request(`/v1/alerts/history?org_id=${org.id}`, { key })).status).toBe(200);
    const admin = await json<History>(await ctx.request(`/v1/alerts/history?org_id=${other.id}`));
    expect(admin.data.map((alert) => alert.id)).toContain(theirs!.id);
    expect(admin.data.every((alert) => alert.org_id === other.id || alert.org_id === null)).toBe(true);
  });

  it('shows the alert a breaker raised when it opened, and its resolution when reset', async () => {
    const { key } = await keyWith(ctx, ['observability:read']);
    const breaker = 'mock/mock-speed';
    for (let i = 0; i < 5; i++) await ctx.runtime.breakers.record(breaker, 'failure');
    await ctx.runtime.alerts.flush();
    const opened = (await json<History>(await ctx.request('/v1/alerts/history?status=firing', { key }))).data.filter((alert) => alert.subject === breaker);
    expect(opened).toHaveLength(1);
    expect(opened[0]).toMatchObject({ kind: 'breaker_open', org_id: null, severity: 'warning' });
    expect(opened[0]!.message).toContain(`Circuit breaker of ${breaker} opened`);
    expect((await ctx.request('/v1/observability/breakers/reset', { body: { key: breaker } })).status).toBe(204);
    await ctx.runtime.alerts.flush();
    expect((await json<History>(await ctx.request(`/v1/alerts/history?alert_id=${opened[0]!.id}`, { key }))).data[0]).toMatchObject({ status: 'resolved' });
  });
});
