import type { RouteRegistry } from '@svc/http-kit';
import type { ControlPlaneDeps } from '../deps.js';
import type { ControlEnv } from '../env.js';
import { cacheWire, latencyWire, requestsWire, spendWire, tokensWire } from './observability-figures.js';
import { readReportQuery, reportHeader, reportQuery, reportScope, reportWindow, trafficReportRoute } from './observability-scope.js';

const query = reportQuery(1);

export const metricsSummaryRoute = trafficReportRoute({
  path: '/v1/observability/metrics/summary',
  operationId: 'getMetricsSummary',
  summary: 'Traffic summary: requests, errors, latency, tokens, spend, savings, cache',
  description: 'From the decision log and the usage ledger over the window, plus live state: the degradation level, open breakers and the learn backlog.',
  query,
  answer: '`{object: "metrics.summary", scope, org_id, window, requests, latency_ms, tokens, cost_usd, baseline_cost_usd, savings_usd, savings_pct, cache, live}`.',
});

/**
 * `GET /metrics/summary` (spec document 2), mounted under /v1/observability: the window's
 * requests, error rate, latency percentiles, tokens, spend, savings and cache hit rate from the
 * decision log and the usage ledger (`days`, default 1, clamped to 1..365), plus live state of
 * the fleet and this instance (degradation level, open breakers, learn backlog).
 */
export function registerMetricsSummary(routes: RouteRegistry<ControlEnv>, deps: ControlPlaneDeps): void {
  routes.add(metricsSummaryRoute, async (c) => {
    const { org_id, days } = readReportQuery(query, c.req.query());
    const scope = reportScope(c.get('caller'), org_id);
    const window = reportWindow(days, 1);
    const [figures, breakers, backlog] = await Promise.all([
      deps.db.traffic.summary({ since: window.since, until: window.until, ...(scope.orgId ? { orgId: scope.orgId } : {}) }),
      deps.breakers.list(),
      deps.learn.backlog(),
    ]);
    return c.json({
      object: 'metrics.summary',
      ...reportHeader(scope, window),
      requests: requestsWire(figures),
      latency_ms: latencyWire(figures),
      tokens: tokensWire(figures),
      ...spendWire(figures),
      cache: cacheWire(figures),
      live: {
        degradation_level: deps.switches.current.level,
        open_breakers: breakers.filter((b) => b.state === 'open').length,
        learn_queue_depth: backlog.usage + backlog.decisions,
      },
    });
  });
}
