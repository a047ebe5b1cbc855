import type { DecisionTally } from '@svc/db';
import type { RouteRegistry } from '@svc/http-kit';
import type { ControlPlaneDeps } from '../deps.js';
import type { ControlEnv } from '../env.js';
import { parseReportQuery, routingReportRoute } from './admin-routing-decisions.js';

type Thresholds = ControlPlaneDeps['diversity'];

export interface ModelShare {
  model: string;
  count: number;
  /** count / decisions of the scope, 0..1. */
  share: number;
}

export type AlarmReason = 'entropy_below_floor' | 'arm_share_above_cap';

export interface DiversityAlarm {
  reason: AlarmReason;
  /** The scope's entropy in bits, or its top model's share (0..1). */
  value: number;
  threshold: number;
}

/** One scope of `RoutingDiversityResponse`. */
export interface DiversityScope {
  /** `fleet` or `tenant:<org_id>`. */
  scope: string;
  decisions: number;
  /** Share descending, then model name. */
  models: ModelShare[];
  /** Shannon entropy of the model choice, H = -Σ p·log2 p, in bits; 0 with one model or none. */
  entropy_bits: number;
  /** H / log2(distinct models), 0..1; 0 with one model or none. */
  normalized_entropy: number;
  /** Share of the most chosen model, 0..1; 0 without decisions. */
  top_share: number;
  /** Empty below `min_decisions` decisions, however skewed the choice. */
  alarms: DiversityAlarm[];
}

/** Entropy, shares and arm-collapse alarms of the models chosen in one scope, from decisions per model. */
export function summariseScope(scope: string, counts: ReadonlyMap<string, number>, thresholds: Thresholds): DiversityScope {
  let total = 0;
  for (const count of counts.values()) total += count;
  const shares = [...counts]
    .map(([model, count]) => ({ model, count, share: count / total }))
    .sort((a, b) => b.count - a.count || (a.model < b.model ? -1 : a.model > b.model ? 1 : 0));
  // Math.abs turns the -0 of a single model into 0.
  const entropy = Math.abs(shares.reduce((sum, { share }) => sum - share * Math.log2(share), 0));
  const normalized = shares.length > 1 ? entropy / Math.log2(shares.length) : 0;
  const topShare = shares[0]?.share ?? 0;
  const alarms: DiversityAlarm[] = [];
  if (total >= thresholds.minDecisions) {
    if (entropy < thresholds.entropyFloorBits) alarms.push({ reason: 'entropy_below_floor', value: entropy, threshold: thresholds.entropyFloorBits });
    if (topShare > thresholds.armShareCap) alarms.push({ reason: 'arm_share_above_cap', value: topShare, threshold: thresholds.armShareCap });
  }
  return { scope, decisions: total, models: shares, entropy_bits: entropy, normalized_entropy: normalized, top_share: topShare, alarms };
}

/** Decisions per model, fleet-wide and per tenant, from the log's per-org model tally. */
function countsByScope(rows: readonly DecisionTally[]): { fleet: Map<string, number>; tenants: Map<string, Map<string, number>> } {
  const fleet = new Map<string, number>();
  const tenants = new Map<string, Map<string, number>>();
  for (const row of rows) {
    if (row.value === null) continue;
    fleet.set(row.value, (fleet.get(row.value) ?? 0) + row.decisions);
    let tenant = tenants.get(row.orgId);
    if (!tenant) {
      tenant = new Map();
      tenants.set(row.orgId, tenant);
    }
    tenant.set(row.value, (tenant.get(row.value) ?? 0) + row.decisions);
  }
  return { fleet, tenants };
}

const sum = (counts: ReadonlyMap<string, number>) => {
  let total = 0;
  for (const count of counts.values()) total += count;
  return total;
};

/** One scope per tenant, the busiest first. */
function tenantScopes(tenants: ReadonlyMap<string, ReadonlyMap<string, number>>, thresholds: Thresholds): DiversityScope[] {
  return [...tenants]
    .map(([orgId, counts]) => ({ orgId, counts, total: sum(counts) }))
    .sort((a, b) => b.total - a.total || (a.orgId < b.orgId ? -1 : a.orgId > b.orgId ? 1 : 0))
    .map(({ orgId, counts }) => summariseScope(`tenant:${orgId}`, counts, thresholds));
}

export const routingDiversityRoute = routingReportRoute({
  path: '/v1/admin/routing/diversity',
  operationId: 'getRoutingDiversity',
  summary: 'Arm-collapse alarms: how diverse the chosen models are',
  answer: '`RoutingDiversityResponse`: per scope (fleet, tenants) the model shares, entropy and alarms.',
});

/**
 * `GET /diversity` (spec document 2, behaviour note 1), mounted under /v1/admin/routing: how
 * evenly routing spread decisions over models in the last `days`, fleet-wide and per tenant, with
 * arm-collapse alarms against the deployment's thresholds. Read-only.
 *
 * Query as /decisions: `days`, optional `model` filter; `limit` is validated like everywhere but
 * does not apply. With `tenant_id` the answer holds that tenant's scope only (also when it made no
 * decisions); without it, `fleet` first, then every tenant by decision count.
 *
 * Counts come from a GROUP BY over the whole window (no row cap), so `truncated` is always false;
 * the field stays for clients of the earlier, capped report.
 */
export function registerRoutingDiversity(routes: RouteRegistry<ControlEnv>, deps: ControlPlaneDeps): void {
  routes.add(routingDiversityRoute, async (c) => {
    const query = parseReportQuery(c.req.query());
    const rows = await deps.db.decisions.tally({
      since: new Date(Date.now() - query.days * 86_400_000),
      ...(query.tenant_id !== undefined ? { orgId: query.tenant_id } : {}),
      ...(query.model !== undefined ? { model: query.model } : {}),
    });
    const thresholds = deps.diversity;
    const { fleet, tenants } = countsByScope(rows.filter((row) => row.dimension === 'model'));
    // The tally already kept only that tenant's decisions (its id compared as a uuid, whatever the case).
    const scopes = query.tenant_id !== undefined ? [summariseScope(`tenant:${query.tenant_id}`, fleet, thresholds)] : [summariseScope('fleet', fleet, thresholds), ...tenantScopes(tenants, thresholds)];
    return c.json({
      window_days: query.days,
      thresholds: { entropy_floor_bits: thresholds.entropyFloorBits, arm_share_cap: thresholds.armShareCap, min_decisions: thresholds.minDecisions },
      scopes,
      truncated: false,
    });
  });
}
