import type { DashboardBucket, DashboardUsageFigures, DashboardUsagePoint } from '@svc/db';
import type { BreakerStatus } from '@svc/resilience';
import type { ControlPlaneDeps } from '../deps.js';
import { type DiversityScope, summariseScope } from '../routes/admin-routing-diversity.js';
import { type NextStep, nextStep } from './next-step.js';

export const ranges = { '24h': { hours: 24, bucket: 'hour' }, '7d': { hours: 24 * 7, bucket: 'day' }, '30d': { hours: 24 * 30, bucket: 'day' } } as const satisfies Record<string, { hours: number; bucket: DashboardBucket }>;
export type RangeId = keyof typeof ranges;

export function parseRange(value: string | undefined): RangeId {
  return value !== undefined && value in ranges ? (value as RangeId) : '7d';
}

/** The period a page shows: whole buckets ending with the current one (24 hours, or 7/30 UTC days). */
export function periodOf(range: RangeId, now = new Date()): { since: Date; until: Date; bucket: DashboardBucket } {
  const { hours, bucket } = ranges[range];
  const step = bucket === 'hour' ? 3_600_000 : 86_400_000;
  return { since: new Date(Math.floor(now.getTime() / step) * step - (hours * 3_600_000 - step)), until: now, bucket };
}

/**
 * A breaker as the overview shows it: its own counts cover only its rolling window (30 s by
 * default, gone a minute after the traffic stops), so the ledger's requests and failures of the
 * model over the page's period come with it.
 */
export type OverviewBreaker = BreakerStatus & { period: { requests: number; failed: number } };

export interface Overview {
  range: RangeId;
  bucket: DashboardBucket;
  totals: DashboardUsageFigures;
  series: DashboardUsagePoint[];
  diversity: DiversityScope;
  breakers: OverviewBreaker[];
  /** The span the breakers' own failure/success counts cover. */
  breakerWindowMs: number;
  nextStep: NextStep | undefined;
}

/** Everything the overview shows for one organisation (or the fleet), read in parallel. */
export async function loadOverview(deps: ControlPlaneDeps, input: { orgId: string | undefined; range: RangeId; userId: string; now?: Date }): Promise<Overview> {
  const { since, until, bucket } = periodOf(input.range, input.now);
  const query = { ...(input.orgId ? { orgId: input.orgId } : {}), since, until };
  const [totals, series, tally, breakers, byModel, passkeys] = await Promise.all([
    deps.db.dashboard.usageTotals(query),
    deps.db.dashboard.usageSeries({ ...query, bucket }),
    deps.db.decisions.tally(query),
    deps.breakers.list(),
    deps.db.traffic.costs(query, 'model'),
    deps.db.passkeys.listByUser(input.userId),
  ]);
  const counts = new Map<string, number>();
  for (const row of tally) {
    if (row.dimension === 'model' && row.value !== null) counts.set(row.value, (counts.get(row.value) ?? 0) + row.decisions);
  }
  const diversity = summariseScope(input.orgId ? `tenant:${input.orgId}` : 'fleet', counts, deps.diversity);
  const next = await nextStep(deps.db.onboarding, { orgId: input.orgId, passkeys: passkeys.length });
  const periodCounts = new Map(byModel.map((m) => [m.group ?? '', { requests: m.requests, failed: m.failed }]));
  return {
    range: input.range,
    bucket,
    totals,
    series,
    diversity,
    breakers: breakers.map((b) => ({ ...b, period: periodCounts.get(b.key) ?? { requests: 0, failed: 0 } })),
    breakerWindowMs: deps.breakers.windowMs,
    nextStep: next,
  };
}
