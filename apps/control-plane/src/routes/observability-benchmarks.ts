import type { Hono } from 'hono';
import type { ControlPlaneDeps } from '../deps.js';
import type { ControlEnv } from '../env.js';
import { cacheWire, latencyWire, requestsWire, spendWire, tokensWire } from './observability-figures.js';
import { reportHeader, reportScope, reportWindow } from './observability-scope.js';

/**
 * `GET /benchmarks?days=` (spec document 2), mounted under /v1/observability: per UTC day and
 * served model, latency, error rate, spend, savings and cache hit rate. `days` defaults to 30 and
 * is clamped to 1..365; anything but an integer is 400.
 */
export function registerBenchmarks(app: Hono<ControlEnv>, deps: ControlPlaneDeps): void {
  app.get('/v1/observability/benchmarks', async (c) => {
    const scope = reportScope(c.get('caller'), c.req.query('org_id'));
    const window = reportWindow(c.req.query('days'), 30);
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
