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

export interface Overview {
  range: RangeId;
  bucket: DashboardBucket;
  totals: DashboardUsageFigures;
  series: DashboardUsagePoint[];
  diversity: DiversityScope;
  breakers: BreakerStatus[];
  nextStep: NextStep | undefined;
}

/** Everything the overview shows for one organisation (or the fleet), read in parallel. */
export async function loadOverview(deps: ControlPlaneDeps, input: { orgId: string | undefined; range: RangeId; userId: string; now?: Date }): Promise<Overview> {
  const { hours, bucket } = ranges[input.range];
  const until = input.now ?? new Date();
  // Whole buckets ending with the current one: 24 hours, or 7/30 UTC days.
  const step = bucket === 'hour' ? 3_600_000 : 86_400_000;
  const since = new Date(Math.floor(until.getTime() / step) * step - (hours * 3_600_000 - step));
  const query = { ...(input.orgId ? { orgId: input.orgId } : {}), since, until };
  const [totals, series, tally, breakers, passkeys] = await Promise.all([
    deps.db.dashboard.usageTotals(query),
    deps.db.dashboard.usageSeries({ ...query, bucket }),
    deps.db.decisions.tally(query),
    deps.breakers.list(),
    deps.db.passkeys.listByUser(input.userId),
  ]);
  const counts = new Map<string, number>();
  for (const row of tally) {
    if (row.dimension === 'model' && row.value !== null) counts.set(row.value, (counts.get(row.value) ?? 0) + row.decisions);
  }
  const diversity = summariseScope(input.orgId ? `tenant:${input.orgId}` : 'fleet', counts, deps.diversity);
  const next = await nextStep(deps.db.onboarding, { orgId: input.orgId, passkeys: passkeys.length });
  return { range: input.range, bucket, totals, series, diversity, breakers, nextStep: next };
}
