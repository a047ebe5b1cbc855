import { driftFeed } from '@svc/reports';
import type { RouteRegistry } from '@svc/http-kit';
import type { ControlPlaneDeps } from '../deps.js';
import type { ControlEnv } from '../env.js';
import { parseReportQuery, routingReportRoute } from './admin-routing-decisions.js';
import { DAY_MS, reportScope, windowBounds } from './admin-routing-report-filter.js';

export const routingDriftRoute = routingReportRoute({
  path: '/v1/admin/routing/drift',
  operationId: 'getRoutingDrift',
  summary: 'How the traffic and routing mix moved against the previous window',
  answer: '`DriftFeed`: per scope and dimension the Jensen–Shannon divergence, top movers and `drifted` flags.',
});

/**
 * `GET /drift` (spec document 2) → `DriftFeed`, mounted under /v1/admin/routing: how the traffic
 * and routing mix of the last `days` (the current window) moved against the `days` before it
 * (the previous window), fleet-wide and per tenant. Per dimension (task family, complexity,
 * model, tier, outcome) the Jensen–Shannon divergence in bits and the top movers; per scope the
 * success-rate and mean-latency deltas and `drifted` flags against `SVC_DRIFT_*`.
 *
 * Query as /decisions; `tenant_id` narrows to that tenant's scope, `model` to decisions served by
 * that model; `limit` is validated but does not apply. Every decision of both windows counts
 * (GROUP BY in the database, no row cap).
 */
export function registerRoutingDrift(routes: RouteRegistry<ControlEnv>, deps: ControlPlaneDeps): void {
  routes.add(routingDriftRoute, async (c) => {
    const query = parseReportQuery(c.req.query());
    const now = Date.now();
    const span = query.days * DAY_MS;
    const previous = { since: new Date(now - 2 * span), until: new Date(now - span) };
    const current = { since: new Date(now - span), until: new Date(now) };
    const scope = reportScope(query);
    const [before, after] = await Promise.all([deps.db.decisions.tally({ ...previous, ...scope }), deps.db.decisions.tally({ ...current, ...scope })]);
    const settings = deps.reports.drift;
    return c.json({
      object: 'drift_feed',
      window_days: query.days,
      previous_window: windowBounds(previous.since, previous.until),
      current_window: windowBounds(current.since, current.until),
      thresholds: {
        js_divergence_bits: settings.jsThresholdBits,
        min_decisions: settings.minDecisions,
        success_rate_drop: settings.successRateDrop,
        latency_increase: settings.latencyIncrease,
      },
      scopes: driftFeed(before, after, settings, query.tenant_id),
    });
  });
}
