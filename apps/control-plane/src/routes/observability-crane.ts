import type { RouteRegistry } from '@svc/http-kit';
import { bearer, defineRoute, jsonResponse } from '@svc/openapi';
import type { ControlPlaneDeps } from '../deps.js';
import type { ControlEnv } from '../env.js';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export const craneStatsRoute = defineRoute({
  method: 'get',
  path: '/v1/observability/crane/stats',
  operationId: 'getLearnStageStats',
  summary: 'The learn stage: backlog, lag and counters',
  description: "What waits to be written to the usage ledger and the decision log: the shared Redis journal (every instance's entries) when `REDIS_URL` is set, else this instance's queue; `instance` holds this instance's counters since it started.",
  tags: ['Observability'],
  auth: bearer('observability:read'),
  responses: { 200: jsonResponse('`{object: "crane.stats", backend, scope, queue_depth, pending, oldest_pending_at, lag_ms, instance}`.') },
});

/**
 * `GET /crane/stats` (spec document 2), mounted under /v1/observability: the asynchronous learn
 * stage that writes the usage ledger and the decision log. `queue_depth`, `pending` and `lag_ms`
 * are what waits now: the shared Redis journal (every instance's entries) when `REDIS_URL` is
 * set, else this instance's queue. `instance` holds this instance's counters since it started.
 */
export function registerCraneStats(routes: RouteRegistry<ControlEnv>, deps: ControlPlaneDeps): void {
  routes.add(craneStatsRoute, async (c) => {
    const backlog = await deps.learn.backlog();
    const stats = deps.learn.stats();
    const now = Date.now();
    return c.json({
      object: 'crane.stats',
      backend: backlog.scope === 'shared' ? 'redis_streams' : 'in_process',
      scope: backlog.scope,
      queue_depth: backlog.usage + backlog.decisions,
      pending: { usage: backlog.usage, decisions: backlog.decisions },
      oldest_pending_at: iso(backlog.oldestPendingAt),
      lag_ms: backlog.oldestPendingAt === null ? 0 : Math.max(0, now - backlog.oldestPendingAt),
      instance: {
        queued: stats.queued,
        processed: stats.processed,
        failures: stats.failures,
        last_flush_at: iso(stats.lastFlushAt),
        last_error_at: iso(stats.lastErrorAt),
      },
    });
  });
}
