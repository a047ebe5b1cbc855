import { policyCompliance } from '@svc/reports';
import type { RouteRegistry } from '@svc/http-kit';
import type { ControlPlaneDeps } from '../deps.js';
import type { ControlEnv } from '../env.js';
import { parseReportQuery, routingReportRoute } from './admin-routing-decisions.js';
import { DAY_MS, reportScope, windowBounds } from './admin-routing-report-filter.js';

export const routingPolicyRoute = routingReportRoute({
  path: '/v1/admin/routing/policy',
  operationId: 'getRoutingPolicyCompliance',
  summary: 'How often stated routing constraints were honoured',
  answer: '`PolicyComplianceStats`: a verdict per hard constraint, counts, rates and violating request ids.',
});

/**
 * `GET /policy` (spec document 2) → `PolicyComplianceStats`, mounted under /v1/admin/routing: for
 * the decisions of the last `days`, how often the hard routing constraints they stated
 * (`details.constraints`) were honoured by what served them, judged against the active catalog
 * (tiers, families, free models). Each constraint lists up to `limit` violating request ids.
 * Decisions without `details.constraints` (rows older than it, or requests that set none) are
 * unconstrained. `tenant_id` and `model` narrow the decisions.
 */
export function registerRoutingPolicy(routes: RouteRegistry<ControlEnv>, deps: ControlPlaneDeps): void {
  routes.add(routingPolicyRoute, async (c) => {
    const query = parseReportQuery(c.req.query());
    const until = new Date();
    const since = new Date(until.getTime() - query.days * DAY_MS);
    const scope = reportScope(query);
    const [groups, [total]] = await Promise.all([
      deps.db.decisions.constraintGroups({ since, until, ...scope }, query.limit),
      deps.db.decisions.outcomeStats([{ since, until }], scope),
    ]);
    return c.json({
      object: 'policy_compliance_stats',
      window_days: query.days,
      window: windowBounds(since, until),
      ...policyCompliance(groups, deps.catalog, { decisions: total?.decisions ?? 0, sampleSize: query.limit }),
    });
  });
}
