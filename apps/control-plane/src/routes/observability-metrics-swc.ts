import type { RouteRegistry } from '@svc/http-kit';
import type { ControlPlaneDeps } from '../deps.js';
import type { ControlEnv } from '../env.js';
import { latencyWire, spendWire, tokensWire } from './observability-figures.js';
import { ratio, readReportQuery, reportHeader, reportQuery, reportScope, reportWindow, trafficReportRoute } from './observability-scope.js';

const query = reportQuery(30);

export const metricsSwcRoute = trafficReportRoute({
  path: '/v1/observability/metrics/swc',
  operationId: 'getWorkloadCosts',
  summary: 'Specialised workload costs per workflow type and task family',
  description: 'Requests, spend, savings, tokens and mean latency per workflow type and task family (null where a request had none: cache hits, embeddings, audio), costliest first.',
  query,
  answer: '`{object: "metrics.swc", scope, org_id, window, workloads: [...]}`.',
});

/**
 * `GET /metrics/swc` (specialised workload costs, spec document 2), mounted under
 * /v1/observability: per workflow type and task family (null where a request had none: cache
 * hits, embeddings and audio), requests, spend, savings, tokens and mean latency over `days`
 * (default 30, clamped to 1..365), costliest first.
 */
export function registerMetricsSwc(routes: RouteRegistry<ControlEnv>, deps: ControlPlaneDeps): void {
  routes.add(metricsSwcRoute, async (c) => {
    const { org_id, days } = readReportQuery(query, c.req.query());
    const scope = reportScope(c.get('caller'), org_id);
    const window = reportWindow(days, 30);
    const rows = await deps.db.traffic.workloads({ since: window.since, until: window.until, ...(scope.orgId ? { orgId: scope.orgId } : {}) });
    const totalCost = rows.reduce((sum, row) => sum + row.costUsd, 0);
    return c.json({
      object: 'metrics.swc',
      ...reportHeader(scope, window),
      workloads: rows.map((row) => ({
        workflow_type: row.workflowType,
        task_family: row.taskFamily,
        requests: row.requests,
        failed: row.failed,
        ...spendWire(row),
        cost_share: ratio(row.costUsd, totalCost),
        cost_per_request_usd: ratio(row.costUsd, row.requests),
        tokens: tokensWire(row),
        mean_latency_ms: latencyWire(row).mean,
      })),
    });
  });
}
