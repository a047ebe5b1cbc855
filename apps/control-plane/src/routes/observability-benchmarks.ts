import type { JudgedFigures } from '@svc/db';
import type { RouteRegistry } from '@svc/http-kit';
import { judgedWinRate } from '@svc/reports';
import type { ControlPlaneDeps } from '../deps.js';
import type { ControlEnv } from '../env.js';
import { cacheWire, latencyWire, requestsWire, spendWire, tokensWire } from './observability-figures.js';
import { readReportQuery, reportHeader, reportQuery, reportScope, reportWindow, trafficReportRoute } from './observability-scope.js';

const query = reportQuery(30);

export const benchmarksRoute = trafficReportRoute({
  path: '/v1/observability/benchmarks',
  operationId: 'getBenchmarks',
  summary: 'Per day and served model: latency, error rate, spend, savings, cache hit rate; per task kind and model: judged win rate',
  query,
  answer:
    '`{object: "benchmarks", scope, org_id, window, data: [{date, model, requests, failed, error_rate, latency_ms, cost_usd, ..., cache_hit_rate, tokens}], judged: [{task_kind, model, samples, wins, losses, ties, win_rate, interval: {low, high}, candidate_cost_usd, judge_cost_usd}]}`.',
});

/**
 * `GET /benchmarks?days=` (spec document 2), mounted under /v1/observability: per UTC day and
 * served model, latency, error rate, spend, savings and cache hit rate. `days` defaults to 30 and
 * is clamped to 1..365; anything but an integer is 400. `judged`: shadow judging's verdicts of the
 * window, per task kind and candidate model: its win rate against the served model (ties half)
 * with its 95 % Wilson interval.
 */
export function registerBenchmarks(routes: RouteRegistry<ControlEnv>, deps: ControlPlaneDeps): void {
  routes.add(benchmarksRoute, async (c) => {
    const { org_id, days } = readReportQuery(query, c.req.query());
    const scope = reportScope(c.get('caller'), org_id);
    const window = reportWindow(days, 30);
    const filter = { since: window.since, until: window.until, ...(scope.orgId ? { orgId: scope.orgId } : {}) };
    const [rows, judged] = await Promise.all([deps.db.traffic.dailyByModel(filter), deps.db.shadowVerdicts.judged(filter)]);
    return c.json({
      object: 'benchmarks',
      ...reportHeader(scope, window),
      data: rows.map((row) => {
        const requests = requestsWire(row);
        const cache = cacheWire(row);
        return {
          date: row.day,
          model: row.model,
          requests: requests.total,
          failed: requests.failed,
          error_rate: requests.error_rate,
          latency_ms: latencyWire(row),
          ...spendWire(row),
          cache_hits: cache.hits,
          cache_hit_rate: cache.hit_rate,
          tokens: tokensWire(row),
        };
      }),
      judged: judged.map(judgedWire),
    });
  });
}

/** One task kind and candidate model of `judged`. */
function judgedWire(row: JudgedFigures) {
  const rate = judgedWinRate(row);
  return {
    task_kind: row.taskKind,
    model: row.model,
    samples: row.samples,
    wins: row.wins,
    losses: row.losses,
    ties: row.ties,
    win_rate: rate.win_rate,
    interval: rate.interval,
    candidate_cost_usd: row.candidateCostUsd,
    judge_cost_usd: row.judgeCostUsd,
  };
}
