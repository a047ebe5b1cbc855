import type { LearnedRuling } from '@svc/db';
import {
  type GateEvaluation,
  type GateRouteChange,
  type GateSettings,
  type GateWindow,
  evaluateGate,
  gateWindows,
  routeChanges,
  wilsonInterval,
  withJudgedQuality,
} from '@svc/reports';
import type { RouteRegistry } from '@svc/http-kit';
import type { ControlPlaneDeps } from '../deps.js';
import type { ControlEnv } from '../env.js';
import { parseReportQuery, routingReportRoute } from './admin-routing-decisions.js';
import { reportScope } from './admin-routing-report-filter.js';

export const routingGateRoute = routingReportRoute({
  path: '/v1/admin/routing/gate',
  operationId: 'getRoutingGate',
  summary: "Regression gate: each day's outcomes against its baseline",
  answer: '`RegressionGateHistory`: per 24-hour window the checks and the verdict.',
});

/**
 * `GET /gate` (spec document 2) → `RegressionGateHistory`, mounted under /v1/admin/routing: for
 * each of the last `days` 24-hour windows (newest first, at most `limit` of them), the router's
 * outcomes against a baseline (the `SVC_GATE_BASELINE_DAYS` before that window): success rate,
 * fallback rate, p50 and p95 latency, each pass/fail against the `SVC_GATE_*` tolerances, and the
 * day's verdict. Judged quality (shadow judging): each task kind whose most-served model changed
 * against the baseline is promoted or refused on the new model's judged win rate against the old
 * one (judged pairs up to the day's end), listed in `route_changes` with the reason
 * (`origin: 'traffic'`), followed by the per-task learner's proposed changes the router's gate
 * promoted or refused before applying them that day (`origin: 'learner'`, from the decision log).
 * `tenant_id` and `model` narrow the decisions on both sides.
 */
export function registerRoutingGate(routes: RouteRegistry<ControlEnv>, deps: ControlPlaneDeps): void {
  routes.add(routingGateRoute, async (c) => {
    const query = parseReportQuery(c.req.query());
    const settings = deps.reports.gate;
    const evaluations = await gateEvaluations(deps, { days: Math.min(query.days, query.limit), scope: reportScope(query) });
    const count = (status: string) => evaluations.filter((e) => e.status === status).length;
    return c.json({
      object: 'regression_gate_history',
      window_days: query.days,
      baseline_days: settings.baselineDays,
      thresholds: {
        min_decisions: settings.minDecisions,
        max_success_rate_drop: settings.maxSuccessRateDrop,
        max_fallback_rate_increase: settings.maxFallbackRateIncrease,
        max_latency_increase: settings.maxLatencyIncrease,
        max_judged_quality_drop: settings.maxJudgedQualityDrop,
        min_judged_pairs: settings.minJudgedPairs,
      },
      summary: { evaluated: evaluations.length, passed: count('pass'), failed: count('fail'), insufficient_data: count('insufficient_data') },
      evaluations,
    });
  });
}

/**
 * The regression gate's verdict for each of the last `days` 24-hour windows, newest first: the
 * outcome checks against its baseline and the judged quality of its route changes (what
 * `/v1/admin/routing/gate` and the dashboard's quality page show).
 */
export async function gateEvaluations(deps: ControlPlaneDeps, query: { days: number; scope: { orgId?: string; model?: string } }): Promise<GateEvaluation[]> {
  const settings = deps.reports.gate;
  const windows = gateWindows(new Date(), query.days, settings.baselineDays);
  // One query: each day and its baseline, in order.
  const stats = await deps.db.decisions.outcomeStats(
    windows.flatMap((w) => [w.day, w.baseline]),
    query.scope,
  );
  const org = query.scope.orgId ? { orgId: query.scope.orgId } : {};
  return Promise.all(windows.map((w, i) => judgedQuality(deps, w, evaluateGate(w, stats[2 * i]!, stats[2 * i + 1]!, settings), { settings, ...org })));
}

/** The day's route changes and its judged-quality check, from the decision log and the shadow verdicts. */
async function judgedQuality(
  deps: ControlPlaneDeps,
  window: { day: GateWindow; baseline: GateWindow },
  evaluation: GateEvaluation,
  scope: { settings: GateSettings; orgId?: string },
): Promise<GateEvaluation> {
  const org = scope.orgId ? { orgId: scope.orgId } : {};
  const [current, baseline, pairs, rulings] = await Promise.all([
    deps.db.shadowVerdicts.servedRoutes({ ...window.day, ...org }),
    deps.db.shadowVerdicts.servedRoutes({ ...window.baseline, ...org }),
    deps.db.shadowVerdicts.headToHead({ since: window.baseline.since, until: window.day.until, ...org }),
    deps.db.shadowVerdicts.learnedRulings({ ...window.day, ...org }),
  ]);
  const changes = routeChanges(current, baseline, pairs, scope.settings);
  return withJudgedQuality(evaluation, changes, 0.5 - scope.settings.maxJudgedQualityDrop, rulings.map(learnedChange));
}

/** A ruling of the router's gate as the gate's list shows it. */
function learnedChange(r: LearnedRuling): GateRouteChange {
  const score = (r.judgedWinRate ?? 0) * r.judgedSamples;
  return {
    task_kind: r.taskKind,
    from: r.from,
    to: r.to,
    status: r.status,
    reason: r.reason,
    judged: { samples: r.judgedSamples, win_rate: r.judgedWinRate, interval: wilsonInterval(score, r.judgedSamples) },
    limit: r.limit,
    origin: 'learner',
    decided_at: r.decidedAt.toISOString(),
    decisions: r.decisions,
  };
}
