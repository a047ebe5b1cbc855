import type { RouteRegistry } from '@svc/http-kit';
import type { ControlPlaneDeps } from '../deps.js';
import type { ControlEnv } from '../env.js';
import { cacheWire, latencyWire, requestsWire, spendWire, tokensWire } from './observability-figures.js';
import { readReportQuery, reportHeader, reportQuery, reportScope, reportWindow, trafficReportRoute } from './observability-scope.js';

const query = reportQuery(30);

export const benchmarksRoute = trafficReportRoute({
  path: '/v1/observability/benchmarks',
  operationId: 'getBenchmarks',
  summary: 'Per day and served model: latency, error rate, spend, savings, cache hit rate',
  query,
  answer: '`{object: "benchmarks", scope, org_id, window, data: [{date, model, requests, failed, error_rate, latency_ms, cost_usd, ..., cache_hit_rate, tokens}]}`.',
});

/**
 * `GET /benchmarks?days=` (spec document 2), mounted under /v1/observability: per UTC day and
 * served model, latency, error rate, spend, savings and cache hit rate. `days` defaults to 30 and
 * is clamped to 1..365; anything but an integer is 400.
 */
export function registerBenchmarks(routes: RouteRegistry<ControlEnv>, deps: ControlPlaneDeps): void {
  routes.add(benchmarksRoute, async (c) => {
    const { org_id, days } = readReportQuery(query, c.req.query());
    const scope = reportScope(c.get('caller'), org_id);
    const window = reportWindow(days, 30);
    const rows = await deps.db.traffic.dailyByModel({ since: window.since, until: window.until, ...(scope.orgId ? { orgId: scope.orgId } : {}) });
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
    });
  });
}
