import type { NewAlert, SloRecord } from '@svc/db';
import { type SloCompliance, describeSlo, percent } from './slo-rules.js';

/** The alerts the evaluator raises, their dedupe keys and texts. One firing alert per key. */

export const sloAlertKey = (sloId: string) => `slo:${sloId}`;
export const breakerAlertKey = (breaker: string) => `breaker:${breaker}`;
export const refusalAlertKey = (orgId: string, kind: string) => `limits:${orgId}:${kind}`;

export function sloBreachAlert(slo: SloRecord, compliance: SloCompliance): NewAlert {
  return {
    orgId: slo.orgId,
    kind: 'slo_breach',
    severity: 'critical',
    dedupeKey: sloAlertKey(slo.id),
    subject: slo.id,
    message: `SLO '${slo.name}' breached: ${describeSlo(slo)}, but only ${percent(compliance.compliance ?? 0)} of hours were (${compliance.goodSlices} of ${compliance.slices}).`,
    details: {
      slo_id: slo.id,
      slo_name: slo.name,
      metric: slo.metric,
      threshold: slo.threshold,
      target: slo.target,
      window_days: slo.windowDays,
      compliance: compliance.compliance,
      value: compliance.value,
      slices: compliance.slices,
      good_slices: compliance.goodSlices,
    },
  };
}

export function breakerOpenAlert(breaker: string, reason: string, openedAt: number): NewAlert {
  return {
    orgId: null,
    kind: 'breaker_open',
    severity: 'warning',
    dedupeKey: breakerAlertKey(breaker),
    subject: breaker,
    message: `Circuit breaker of ${breaker} opened (${reason}): requests skip this model until a probe succeeds.`,
    details: { breaker, reason, opened_at: new Date(openedAt).toISOString() },
  };
}

const refusalLabels = { rate: 'rate limits (429)', budget: 'monthly budget (402)', quota: 'monthly token quota (402)' } as const;

export function refusalSpikeAlert(orgId: string, kind: keyof typeof refusalLabels, refusals: number, threshold: number, minute: number): NewAlert {
  return {
    orgId,
    kind: 'limit_spike',
    // A spent budget or quota refuses everything until the month ends or the limit is raised.
    severity: kind === 'rate' ? 'warning' : 'critical',
    dedupeKey: refusalAlertKey(orgId, kind),
    subject: kind,
    message: `${refusals} requests refused by the ${refusalLabels[kind]} within a minute (alert threshold ${threshold} per minute).`,
    details: { limit: kind, refusals, threshold, minute: new Date(minute * 60_000).toISOString() },
  };
}
