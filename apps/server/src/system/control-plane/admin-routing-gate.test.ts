import type { Organization } from '@svc/core';
import type { GateEvaluation } from '@svc/reports';
import { parseEnv } from '../../runtime/env.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY, HOUR, decisionOf, expectConfigErrors, itIsAnAdminReport, json, type ReportTestContext, startReportRuntime } from './admin-routing-test-kit.js';

interface History {
  object: string;
  window_days: number;
  baseline_days: number;
  thresholds: Record<string, number>;
  summary: { evaluated: number; passed: number; failed: number; insufficient_data: number };
  evaluations: GateEvaluation[];
}

let ctx: ReportTestContext;
let gated: Organization;

beforeAll(async () => {
  ctx = await startReportRuntime({ SVC_GATE_BASELINE_DAYS: '3', SVC_GATE_MIN_DECISIONS: '5' });
  gated = await ctx.org('gated');
  const at = (day: number, k: number) => day * DAY + HOUR + k * 60_000;
  const fallback = [
    { model: 'mock/mock-quality', outcome: 'error', latencyMs: 50 },
    { model: 'mock/mock-value', outcome: 'ok', latencyMs: 250 },
  ];
  await ctx.runtime.db.decisions.insertMany([
    // Days 1..3 back: 10 good decisions a day, 100 ms, first attempt.
    ...[1, 2, 3].flatMap((day) => Array.from({ length: 10 }, (_, k) => decisionOf(gated, at(day, k), { latencyMs: 100, attempts: [{ model: 'mock/mock-value', outcome: 'ok' }] }))),
    // The last 24 hours: slower, falling back, and 3 of 10 failed.
    ...Array.from({ length: 7 }, (_, k) => decisionOf(gated, at(0, k), { latencyMs: 300, attempts: fallback })),
    ...Array.from({ length: 3 }, (_, k) => decisionOf(gated, at(0, 7 + k), { outcome: 'error', latencyMs: 30_000 })),
  ]);
});
afterAll(async () => {
  await ctx?.runtime.close();
});

const history = async (query = '') => json<History>(await ctx.request(`/v1/admin/routing/gate${query}`));

describe('GET /v1/admin/routing/gate', () => {
  itIsAnAdminReport(() => ctx, '/v1/admin/routing/gate');

  it('reports the configured baseline and tolerances', async () => {
    const h = await history();
    expect(h).toMatchObject({ object: 'regression_gate_history', window_days: 7, baseline_days: 3 });
    expect(h.thresholds).toEqual({ min_decisions: 5, max_success_rate_drop: 0.02, max_fallback_rate_increase: 0.05, max_latency_increase: 0.25, max_judged_quality_drop: 0.05, min_judged_pairs: 20 });
    expect(h.evaluations).toHaveLength(7);
  });

  it('fails the day whose outcomes regressed against the days before it', async () => {
    const [today] = (await history(`?tenant_id=${gated.id}&days=4`)).evaluations;
    expect(today!.status).toBe('fail');
    expect(today!.current).toEqual({ decisions: 10, success_rate: 0.7, fallback_rate: 0.7, p50_latency_ms: 300, p95_latency_ms: 300 });
    expect(today!.baseline).toEqual({ decisions: 30, success_rate: 1, fallback_rate: 0, p50_latency_ms: 100, p95_latency_ms: 100 });
    expect(today!.checks.map((c) => [c.check, c.status, c.limit])).toEqual([
      ['success_rate', 'fail', 0.98],
      ['fallback_rate', 'fail', 0.05],
      ['p50_latency_ms', 'fail', 125],
      ['p95_latency_ms', 'fail', 125],
      ['judged_quality', 'skipped', 0.45],
    ]);
    expect(Date.parse(today!.end) - Date.parse(today!.start)).toBe(DAY);
    expect(today!.baseline_end).toBe(today!.start);
    expect(Date.parse(today!.baseline_end) - Date.parse(today!.baseline_start)).toBe(3 * DAY);
  });

  it('lists the days newest first: passes, then too little baseline', async () => {
    const h = await history(`?tenant_id=${gated.id}&days=4`);
    expect(h.evaluations.map((e) => [e.status, e.current.decisions, e.baseline.decisions])).toEqual([
      ['fail', 10, 30],
      ['pass', 10, 20],
      ['pass', 10, 10],
      ['insufficient_data', 10, 0],
    ]);
    expect(h.evaluations[3]!.checks.every((c) => c.status === 'skipped')).toBe(true);
    expect(h.summary).toEqual({ evaluated: 4, passed: 2, failed: 1, insufficient_data: 1 });
    const starts = h.evaluations.map((e) => Date.parse(e.start));
    expect(starts).toEqual([...starts].sort((a, b) => b - a));
  });

  it('promotes or refuses a changed route of a task kind on its judged quality, and says why', async () => {
    const judged = await ctx.org('judged');
    const at = (day: number, k: number) => day * DAY + HOUR + k * 60_000;
    const code = (day: number, k: number, model: string) => decisionOf(judged, at(day, k), { model, taskFamily: 'code', attempts: [{ model, outcome: 'ok' }] });
    await ctx.runtime.db.decisions.insertMany([
      // The baseline served code with mock-quality; today the learned route serves it with mock-value.
      // (Five days back, so the fleet-wide figures of today stay the other tests'.)
      ...Array.from({ length: 10 }, (_, k) => code(5, k, 'mock/mock-quality')),
      ...Array.from({ length: 10 }, (_, k) => code(4, k, 'mock/mock-value')),
    ]);
    const verdict = (k: number, outcome: string) => ({
      orgId: judged.id,
      requestId: `req_judged_${k}`,
      taskKind: 'code',
      incumbentModel: 'mock/mock-quality',
      candidateModel: 'mock/mock-value',
      judgeModel: 'mock/mock-quality',
      verdict: outcome,
      createdAt: new Date(Date.now() - at(5, k)),
    });
    // 30 judged pairs: the cheaper model lost 24 of them.
    for (let k = 0; k < 30; k++) await ctx.runtime.db.shadowVerdicts.insert(verdict(k, k < 24 ? 'incumbent' : 'candidate'));
    const today = (await history(`?tenant_id=${judged.id}&days=5`)).evaluations[4];
    expect(today!.route_changes).toEqual([
      expect.objectContaining({ task_kind: 'code', from: 'mock/mock-quality', to: 'mock/mock-value', status: 'refused', reason: 'judged_worse', limit: 0.45, judged: expect.objectContaining({ samples: 30, win_rate: 0.2 }) }),
    ]);
    expect(today!.checks.find((c) => c.check === 'judged_quality')).toMatchObject({ status: 'fail', current: 0.2, limit: 0.45 });
    expect(today!.status).toBe('fail');
  });

  it('evaluates at most `limit` days', async () => {
    expect((await history('?days=30&limit=2')).evaluations).toHaveLength(2);
    expect((await history('?days=365')).evaluations).toHaveLength(100);
  });

  it('narrows both sides to the model and tenant asked for', async () => {
    const speed = await history('?model=mock/mock-speed&days=2');
    expect(speed.evaluations.map((e) => [e.status, e.current.decisions, e.baseline.decisions])).toEqual([
      ['insufficient_data', 0, 0],
      ['insufficient_data', 0, 0],
    ]);
    const fleet = await history('?days=1');
    expect(fleet.evaluations[0]).toMatchObject({ status: 'fail', current: { decisions: 10 } });
  });
});

describe('gate tolerances from the environment', () => {
  it('defaults to a 7-day baseline, 20 decisions, -2 points success, +5 points fallback, +25 % latency', () => {
    expect(parseEnv({})).toMatchObject({
      SVC_GATE_BASELINE_DAYS: 7,
      SVC_GATE_MIN_DECISIONS: 20,
      SVC_GATE_MAX_SUCCESS_DROP: 0.02,
      SVC_GATE_MAX_FALLBACK_INCREASE: 0.05,
      SVC_GATE_MAX_LATENCY_INCREASE: 0.25,
      SVC_GATE_MAX_JUDGED_DROP: 0.05,
      SVC_GATE_MIN_JUDGED_PAIRS: 20,
    });
  });

  it('names the variable of a bad value', () => {
    expectConfigErrors([
      ['SVC_GATE_BASELINE_DAYS', '0'],
      ['SVC_GATE_BASELINE_DAYS', '91'],
      ['SVC_GATE_MIN_DECISIONS', 'many'],
      ['SVC_GATE_MAX_SUCCESS_DROP', '1.5'],
      ['SVC_GATE_MAX_FALLBACK_INCREASE', '-0.1'],
      ['SVC_GATE_MAX_LATENCY_INCREASE', 'NaN'],
      ['SVC_GATE_MAX_JUDGED_DROP', '0.6'],
    ]);
  });
});
