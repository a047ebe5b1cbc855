import type { Hono } from 'hono';
import type { ControlPlaneDeps } from '../deps.js';
import type { ControlEnv } from '../env.js';
import { cacheWire, latencyWire, requestsWire, spendWire, tokensWire } from './observability-figures.js';
import { reportHeader, reportScope, reportWindow } from './observability-scope.js';

/**
 * `GET /metrics/summary` (spec document 2), mounted under /v1/observability: the window's
 * requests, error rate, latency percentiles, tokens, spend, savings and cache hit rate from the
 * decision log and the usage ledger (`days`, default 1, clamped to 1..365), plus live state of
 * the fleet and this instance (degradation level, open breakers, learn backlog).
 */
export function registerMetricsSummary(app: Hono<ControlEnv>, deps: ControlPlaneDeps): void {
  app.get('/v1/observability/metrics/summary', async (c) => {
    const scope = reportScope(c.get('caller'), c.req.query('org_id'));
    const window = reportWindow(c.req.query('days'), 1);
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
