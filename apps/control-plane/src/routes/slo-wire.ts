import { type SloCompliance, describeSlo } from '@svc/alerts';
import { sloObjective } from '@svc/core';
import type { SloRecord } from '@svc/db';

/** `SloResponse`: the SLO in wire names with its compliance over the window ending now. */
export function sloToWire(slo: SloRecord, compliance: SloCompliance, evaluatedAt: Date) {
  return {
    object: 'slo',
    id: slo.id,
    org_id: slo.orgId,
    name: slo.name,
    metric: slo.metric,
    threshold: slo.threshold,
    target: slo.target,
    window_days: slo.windowDays,
    objective: sloObjective(slo.metric),
    description: describeSlo(slo),
    compliance: {
      status: compliance.status,
      compliance: compliance.compliance,
      current_value: compliance.value,
      slice: 'hour',
      slices: compliance.slices,
      good_slices: compliance.goodSlices,
      error_budget_remaining_hours: compliance.errorBudgetRemainingHours,
      window_start: compliance.windowStart.toISOString(),
      window_end: compliance.windowEnd.toISOString(),
      evaluated_at: evaluatedAt.toISOString(),
    },
    created_at: slo.createdAt.toISOString(),
    updated_at: slo.updatedAt.toISOString(),
  };
}
