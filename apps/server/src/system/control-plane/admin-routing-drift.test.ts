import { randomUUID } from 'node:crypto';
import type { Organization } from '@svc/core';
import type { DriftEntry } from '@svc/reports';
import { parseEnv } from '../../runtime/env.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY, HOUR, decisionOf, expectConfigErrors, itIsAnAdminReport, json, type ReportTestContext, startReportRuntime } from './admin-routing-test-kit.js';

interface Feed {
  object: string;
  window_days: number;
  previous_window: { start: string; end: string };
  current_window: { start: string; end: string };
  thresholds: Record<string, number>;
  scopes: DriftEntry[];
}

let ctx: ReportTestContext;
/** The same mix in both windows. */
let steady: Organization;
/** Everything but the outcome changed, and it got slower. */
let shifting: Organization;
/** Changed completely, but below the minimum decision count. */
let quiet: Organization;
/** 1200 decisions in the current window. */
let bulk: Organization;

const code = { taskFamily: 'code', model: 'mock/mock-value', tier: 'T2', details: { complexity: 'standard' } };
const chat = { taskFamily: 'chat', model: 'mock/mock-speed', tier: 'T3', details: { complexity: 'trivial' } };
const math = { taskFamily: 'math', model: 'mock/mock-quality', tier: 'T1', details: { complexity: 'expert' }, latencyMs: 300 };

beforeAll(async () => {
  ctx = await startReportRuntime({ SVC_DRIFT_MIN_DECISIONS: '4', SVC_DRIFT_JS_THRESHOLD: '0.2' });
  [steady, shifting, quiet, bulk] = await Promise.all([ctx.org('steady'), ctx.org('shifting'), ctx.org('quiet'), ctx.org('bulk')]);
  const previous = (i: number) => 8 * DAY + i * HOUR;
  const current = (i: number) => HOUR + i * HOUR;
  await ctx.runtime.db.decisions.insertMany([
    ...[0, 1, 2].flatMap((i) => [decisionOf(steady, previous(i), code), decisionOf(steady, previous(i), chat), decisionOf(steady, current(i), code), decisionOf(steady, current(i), chat)]),
    ...[0, 1, 2, 3].flatMap((i) => [decisionOf(shifting, previous(i), code), decisionOf(shifting, current(i), math)]),
    ...[0, 1].flatMap((i) => [decisionOf(quiet, previous(i), code), decisionOf(quiet, current(i), math)]),
    // Older than both windows of the default 7 days.
    decisionOf(shifting, 19 * DAY, chat),
    ...Array.from({ length: 1200 }, (_, i) => decisionOf(bulk, current(i % 100), i % 4 === 0 ? chat : code)),
  ]);
});
afterAll(async () => {
  await ctx?.runtime.close();
});

const feed = async (query = '') => json<Feed>(await ctx.request(`/v1/admin/routing/drift${query}`));
const scope = (f: Feed, org: Organization) => f.scopes.find((s) => s.scope === `tenant:${org.id}`)!;
const dimension = (entry: DriftEntry, name: string) => entry.dimensions.find((d) => d.dimension === name)!;

describe('GET /v1/admin/routing/drift', () => {
  itIsAnAdminReport(() => ctx, '/v1/admin/routing/drift');

  it('compares the last `days` with the `days` before, against the configured thresholds', async () => {
    const before = Date.now();
    const f = await feed();
    expect(f).toMatchObject({ object: 'drift_feed', window_days: 7 });
    expect(f.thresholds).toEqual({ js_divergence_bits: 0.2, min_decisions: 4, success_rate_drop: 0.05, latency_increase: 0.5 });
    const end = Date.parse(f.current_window.end);
    expect(end).toBeGreaterThanOrEqual(before);
    expect(Date.parse(f.current_window.start)).toBe(end - 7 * DAY);
    expect(f.previous_window).toEqual({ start: new Date(end - 14 * DAY).toISOString(), end: f.current_window.start });
  });

  it('finds no drift where the mix held', async () => {
    const entry = scope(await feed(), steady);
    expect(entry).toMatchObject({ decisions: { before: 6, after: 6 }, drifted: false, flags: [] });
    for (const d of entry.dimensions) expect(d).toMatchObject({ js_divergence_bits: 0, drifted: false, top_movers: [] });
    expect(entry.success_rate).toEqual({ before: 1, after: 1, delta: 0 });
  });

  it('flags the dimensions that moved, with their movers, and the latency rise', async () => {
    const entry = scope(await feed(), shifting);
    expect(entry.decisions).toEqual({ before: 4, after: 4 });
    for (const name of ['task_family', 'complexity', 'model', 'tier']) expect(dimension(entry, name), name).toMatchObject({ js_divergence_bits: 1, drifted: true });
    expect(dimension(entry, 'outcome')).toMatchObject({ js_divergence_bits: 0, drifted: false });
    expect(dimension(entry, 'model').top_movers).toEqual([
      { value: 'mock/mock-quality', share_before: 0, share_after: 1, delta: 1 },
      { value: 'mock/mock-value', share_before: 1, share_after: 0, delta: -1 },
    ]);
    expect(entry.mean_latency_ms).toEqual({ before: 100, after: 300, delta: 200 });
    expect(entry.drifted).toBe(true);
    expect(entry.flags.map((f) => [f.reason, f.dimension])).toEqual([
      ['distribution_shift', 'task_family'],
      ['distribution_shift', 'complexity'],
      ['distribution_shift', 'model'],
      ['distribution_shift', 'tier'],
      ['latency_increase', undefined],
    ]);
    expect(entry.flags.at(-1)).toEqual({ reason: 'latency_increase', value: 2, threshold: 0.5 });
  });

  it('measures but does not flag below the minimum decision count', async () => {
    const entry = scope(await feed(), quiet);
    expect(entry).toMatchObject({ decisions: { before: 2, after: 2 }, drifted: false, flags: [] });
    expect(dimension(entry, 'model')).toMatchObject({ js_divergence_bits: 1, drifted: false });
  });

  it('puts the fleet first, then tenants by current decisions, every decision counted', async () => {
    const f = await feed();
    expect(f.scopes.map((s) => s.scope)).toEqual(['fleet', `tenant:${bulk.id}`, `tenant:${steady.id}`, `tenant:${shifting.id}`, `tenant:${quiet.id}`]);
    expect(f.scopes[0]!.decisions).toEqual({ before: 12, after: 1212 });
    expect(scope(f, bulk).decisions.after).toBe(1200);
    expect(dimension(scope(f, bulk), 'model').top_movers).toEqual([
      { value: 'mock/mock-value', share_before: 0, share_after: 0.75, delta: 0.75 },
      { value: 'mock/mock-speed', share_before: 0, share_after: 0.25, delta: 0.25 },
    ]);
  });

  it('narrows to one tenant with tenant_id and to one served model with model', async () => {
    const one = await feed(`?tenant_id=${shifting.id}`);
    expect(one.scopes.map((s) => s.scope)).toEqual([`tenant:${shifting.id}`]);
    expect(one.scopes[0]!.drifted).toBe(true);
    const nobody = await feed(`?tenant_id=${randomUUID()}`);
    expect(nobody.scopes).toEqual([expect.objectContaining({ decisions: { before: 0, after: 0 }, drifted: false })]);
    const quality = await feed('?model=mock/mock-quality');
    expect(quality.scopes.map((s) => [s.scope, s.decisions.before, s.decisions.after])).toEqual([
      ['fleet', 0, 6],
      [`tenant:${shifting.id}`, 0, 4],
      [`tenant:${quiet.id}`, 0, 2],
    ]);
  });

  it('widens both windows with days', async () => {
    // 10 days: the current window reaches the previous decisions, the previous one the 19-day-old one.
    const entry = scope(await feed(`?days=10&tenant_id=${shifting.id}`), shifting);
    expect(entry.decisions).toEqual({ before: 1, after: 8 });
  });
});

describe('drift thresholds from the environment', () => {
  it('defaults to 0.1 bits, 50 decisions, a 5-point success drop and +50 % latency', () => {
    expect(parseEnv({})).toMatchObject({ SVC_DRIFT_JS_THRESHOLD: 0.1, SVC_DRIFT_MIN_DECISIONS: 50, SVC_DRIFT_SUCCESS_DROP: 0.05, SVC_DRIFT_LATENCY_INCREASE: 0.5 });
  });

  it('names the variable of a bad value', () => {
    expectConfigErrors([
      ['SVC_DRIFT_JS_THRESHOLD', '1.5'],
      ['SVC_DRIFT_JS_THRESHOLD', 'high'],
      ['SVC_DRIFT_MIN_DECISIONS', '-1'],
      ['SVC_DRIFT_SUCCESS_DROP', '2'],
      ['SVC_DRIFT_LATENCY_INCREASE', 'Infinity'],
    ]);
  });
});
