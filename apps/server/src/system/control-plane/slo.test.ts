import { randomUUID } from 'node:crypto';
import { clearOfHourEdge, newDecision } from '@svc/db/test';
import { createInferenceApp } from '@svc/inference';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ReportTestContext, json, startReportRuntime } from './admin-routing-test-kit.js';
import { expectBearer, expectInvalid, keyWith } from './control-test-kit.js';
import { maxSlosPerOrg } from '@svc/control-plane';

let ctx: ReportTestContext;
beforeAll(async () => {
  ctx = await startReportRuntime({ SVC_ALERTS_INTERVAL_MS: '0' });
});
afterAll(async () => {
  await ctx?.runtime.close();
});

const slo = (overrides: Record<string, unknown> = {}) => ({ name: 'availability', metric: 'availability', threshold: 0.9, target: 0.95, window_days: 7, ...overrides });

interface SloWire {
  id: string;
  org_id: string;
  name: string;
  threshold: number;
  compliance: { status: string; compliance: number | null; current_value: number | null; slices: number; good_slices: number; slice: string; window_start: string; window_end: string };
}

describe('POST /v1/slo', () => {
  it('needs a key (401) with observability:read (403)', async () => {
    await expectBearer(ctx, '/v1/slo', 'observability:read', { method: 'POST', body: slo() });
    await expectBearer(ctx, '/v1/slo', 'observability:read');
  });

  it('validates every field, naming it (400)', async () => {
    const { key } = await keyWith(ctx, ['observability:read']);
    const post = (body: unknown) => ctx.request('/v1/slo', { body, key });
    await expectInvalid(await post('not json'), null);
    for (const [body, param] of [
      [{ ...slo(), name: undefined }, 'name'],
      [slo({ name: '   ' }), 'name'],
      [slo({ name: 'x'.repeat(101) }), 'name'],
      [slo({ metric: 'happiness' }), 'metric'],
      [slo({ threshold: '0.9' }), 'threshold'],
      [slo({ threshold: 1.5 }), 'threshold'],
      [slo({ threshold: -0.1 }), 'threshold'],
      [slo({ metric: 'latency_p95_ms', threshold: 0 }), 'threshold'],
      [slo({ metric: 'latency_p95_ms', threshold: 600_001 }), 'threshold'],
      [slo({ metric: 'cost_per_request_usd', threshold: 101 }), 'threshold'],
      [slo({ target: 0 }), 'target'],
      [slo({ target: 1.01 }), 'target'],
      [slo({ window_days: 0 }), 'window_days'],
      [slo({ window_days: 366 }), 'window_days'],
      [slo({ window_days: 1.5 }), 'window_days'],
    ] as const) {
      await expectInvalid(await post(body), param, `${param} of ${JSON.stringify(body)}`);
    }
    const latency = await post(slo({ metric: 'latency_p95_ms', threshold: 0 }));
    expect(((await latency.json()) as { error: { message: string } }).error.message).toContain('greater than 0 and at most 600000 (milliseconds) for latency_p95_ms');
  });

  it('answers the SLO with its compliance from the organisation’s real traffic', async () => {
    // The four requests must share one hourly slice (a lone failing hour would breach the target).
    await clearOfHourEdge();
    const { org, key } = await keyWith(ctx, ['inference:chat', 'observability:read']);
    const inference = createInferenceApp({ ...ctx.runtime, maxBodyBytes: 64 * 1024 });
    const chat = (content: string) =>
      inference.request('/v1/chat/completions', {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'mock/mock-value', messages: [{ role: 'user', content }] }),
      });
    for (const content of ['one', 'two', 'three']) expect((await chat(`${content} ${randomUUID()}`)).status).toBe(200);
    expect((await chat('fail [mock:error=400]')).status).toBe(400);
    await ctx.runtime.learn.flush();

    const created = await json<SloWire>(await ctx.request('/v1/slo', { body: slo({ name: 'api', threshold: 0.5, window_days: 1 }), key }));
    expect(created).toMatchObject({ object: 'slo', org_id: org.id, name: 'api', metric: 'availability', threshold: 0.5, target: 0.95, window_days: 1, objective: 'at_least' });
    // 3 of the 4 requests succeeded; the hour(s) they fell in all had availability >= 0.5.
    expect(created.compliance).toMatchObject({ status: 'met', compliance: 1, current_value: 0.75, slice: 'hour' });
    expect(created.compliance.slices).toBeGreaterThanOrEqual(1);
    expect(Date.parse(created.compliance.window_end) - Date.parse(created.compliance.window_start)).toBe(86_400_000);

    // The same name replaces the SLO (same id): the stricter threshold is breached.
    const replaced = await json<SloWire>(await ctx.request('/v1/slo', { body: slo({ name: 'api', threshold: 0.99, target: 1, window_days: 1 }), key }));
    expect(replaced).toMatchObject({ id: created.id, threshold: 0.99, compliance: { status: 'breached', compliance: 0, current_value: 0.75 } });
    const list = await json<{ data: SloWire[] }>(await ctx.request('/v1/slo', { key }));
    expect(list.data.map((s) => [s.id, s.compliance.status])).toEqual([[created.id, 'breached']]);
  }, 150_000);

  it('judges each hour of seeded traffic against the threshold, and has no data without traffic', async () => {
    const { org, key } = await keyWith(ctx, ['observability:read']);
    const hour = 3_600_000;
    const at = (hoursAgo: number) => new Date(Math.floor(Date.now() / hour) * hour - hoursAgo * hour + 60_000);
    await ctx.runtime.db.decisions.insertMany([
      ...[150, 250].map((latencyMs) => newDecision(org.id, { outcome: 'ok', latencyMs, createdAt: at(1) })),
      ...[3000, 3000].map((latencyMs) => newDecision(org.id, { outcome: 'ok', latencyMs, createdAt: at(2) })),
      newDecision(org.id, { outcome: 'ok', latencyMs: 100, createdAt: at(3) }),
    ]);
    const body = slo({ name: 'p95', metric: 'latency_p95_ms', threshold: 1000, target: 0.6, window_days: 1 });
    const judged = await json<SloWire>(await ctx.request('/v1/slo', { body, key }));
    expect(judged.compliance).toMatchObject({ status: 'met', slices: 3, good_slices: 2 });
    expect(judged.compliance.compliance).toBeCloseTo(2 / 3, 10);
    const quiet = await keyWith(ctx, ['observability:read']);
    expect((await json<SloWire>(await ctx.request('/v1/slo', { body, key: quiet.key }))).compliance).toMatchObject({ status: 'no_data', compliance: null, current_value: null, slices: 0 });
  });

  it('lets an admin act on another organisation; anyone else gets 403', async () => {
    const { org, key } = await keyWith(ctx, ['observability:read']);
    const other = await ctx.org('other');
    expect((await ctx.request(`/v1/slo?org_id=${other.id}`, { body: slo(), key })).status).toBe(403);
    const byAdmin = await json<SloWire>(await ctx.request(`/v1/slo?org_id=${org.id}`, { body: slo({ name: 'set by admin' }) }));
    expect(byAdmin.org_id).toBe(org.id);
    expect((await ctx.request(`/v1/slo?org_id=${randomUUID()}`, { body: slo() })).status).toBe(404);
  });

  it(`keeps at most ${maxSlosPerOrg} SLOs per organisation; an existing name still replaces`, async () => {
    const { org, key } = await keyWith(ctx, ['observability:read']);
    for (let i = 0; i < maxSlosPerOrg; i++) await ctx.runtime.db.slos.put({ orgId: org.id, name: `slo ${i}`, metric: 'error_rate', threshold: 0.1, target: 0.9, windowDays: 1 });
    await expectInvalid(await ctx.request('/v1/slo', { body: slo({ name: 'one too many' }), key }), 'name');
    expect((await ctx.request('/v1/slo', { body: slo({ name: 'slo 7' }), key })).status).toBe(200);
  });
});

describe('DELETE /v1/slo/{id}', () => {
  it('deletes the organisation’s SLO and resolves its firing alert; 404 for another organisation’s', async () => {
    const { org, key } = await keyWith(ctx, ['observability:read']);
    const created = await json<SloWire>(await ctx.request('/v1/slo', { body: slo({ threshold: 1, target: 1, window_days: 1 }), key }));
    await ctx.runtime.db.decisions.insertMany([newDecision(org.id, { outcome: 'error', createdAt: new Date(Date.now() - 1000) })]);
    await ctx.runtime.alerts.evaluateSlos();
    const [firing] = await ctx.runtime.db.alerts.list({ orgId: org.id, status: 'firing' });
    expect(firing).toMatchObject({ kind: 'slo_breach', subject: created.id });
    const stranger = await keyWith(ctx, ['observability:read']);
    expect((await ctx.request(`/v1/slo/${created.id}`, { method: 'DELETE', key: stranger.key })).status).toBe(404);
    expect(await json(await ctx.request(`/v1/slo/${created.id}`, { method: 'DELETE', key }))).toEqual({ object: 'slo', id: created.id, deleted: true });
    expect((await ctx.runtime.db.alerts.list({ id: firing!.id }))[0]).toMatchObject({ status: 'resolved', details: { resolution: 'slo_deleted' } });
    expect((await ctx.request(`/v1/slo/${created.id}`, { method: 'DELETE', key })).status).toBe(404);
    expect((await ctx.request(`/v1/slo/${created.id}`, { method: 'DELETE', key: null })).status).toBe(401);
  });
});
