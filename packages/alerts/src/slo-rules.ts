import { type SloMetric, sloObjective } from '@svc/core';
import type { SloRecord, SloWindowStats } from '@svc/db';

/** The range a metric's threshold must fall in, in the metric's unit. */
export interface ThresholdRange {
  min: number;
  max: number;
  /** `min` itself is not allowed (a latency of 0 ms cannot be met). */
  minExclusive: boolean;
  unit: 'ratio' | 'ms' | 'usd';
}

/** Longest request the gateway serves (the default request deadline is 10 minutes). */
const maxLatencyMs = 600_000;

/** Thresholds: rates 0..1, latencies (0, 600000] ms, cost per request 0..100 USD. */
export function thresholdRange(metric: SloMetric): ThresholdRange {
  if (metric.startsWith('latency_')) return { min: 0, max: maxLatencyMs, minExclusive: true, unit: 'ms' };
  if (metric === 'cost_per_request_usd') return { min: 0, max: 100, minExclusive: false, unit: 'usd' };
  return { min: 0, max: 1, minExclusive: false, unit: 'ratio' };
}

/** Whether `threshold` is in the metric's range. */
export function thresholdAllowed(metric: SloMetric, threshold: number): boolean {
  const range = thresholdRange(metric);
  return Number.isFinite(threshold) && (range.minExclusive ? threshold > range.min : threshold >= range.min) && threshold <= range.max;
}

/** `target`: the share of hours that must be good, in (0, 1]. `window_days`: a whole number of days, 1..365. */
export const sloBounds = { targetMin: 0, targetMax: 1, windowDaysMin: 1, windowDaysMax: 365 } as const;

export type SloStatus = 'met' | 'breached' | 'no_data';

/** An SLO judged over its window (see `judgeSlo`). */
export interface SloCompliance {
  status: SloStatus;
  /** Good hours / hours with traffic (0..1); null without traffic. */
  compliance: number | null;
  /** The metric over the whole window; null without traffic. */
  value: number | null;
  /** Hours with traffic, and how many of them were good. */
  slices: number;
  goodSlices: number;
  /** Bad hours the target still allows in the window (negative: the budget is overspent); null without traffic. */
  errorBudgetRemainingHours: number | null;
  windowStart: Date;
  windowEnd: Date;
}

/**
 * Judges an SLO from its window's hourly figures: met while the share of good hours (hours with
 * traffic whose metric is on the good side of the threshold) is at least `target`; `no_data`
 * without traffic (nothing can be breached then).
 */
export function judgeSlo(slo: Pick<SloRecord, 'target'>, stats: SloWindowStats): SloCompliance {
  const base = { value: stats.value, slices: stats.slices, goodSlices: stats.goodSlices, windowStart: stats.since, windowEnd: stats.until };
  if (stats.slices === 0) return { ...base, status: 'no_data', compliance: null, errorBudgetRemainingHours: null };
  const compliance = stats.goodSlices / stats.slices;
  const allowedBad = (1 - slo.target) * stats.slices;
  // `+ 0` turns a rounded -0 into 0.
  const remaining = Math.round((allowedBad - (stats.slices - stats.goodSlices)) * 100) / 100 + 0;
  // A hair of float error (0.99 * 100 hours) must not turn a met target into a breach.
  const met = compliance + 1e-12 >= slo.target;
  return { ...base, status: met ? 'met' : 'breached', compliance, errorBudgetRemainingHours: remaining };
}

const metricLabels: Record<SloMetric, string> = {
  availability: 'availability',
  error_rate: 'error rate',
  latency_p50_ms: 'p50 latency (ms)',
  latency_p95_ms: 'p95 latency (ms)',
  latency_p99_ms: 'p99 latency (ms)',
  cache_hit_rate: 'cache hit rate',
  fallback_rate: 'fallback rate',
  cost_per_request_usd: 'cost per request (USD)',
};

/** One line a person can read: `p95 latency (ms) at most 2000 in 99% of hours over 30 days`. */
export function describeSlo(slo: Pick<SloRecord, 'metric' | 'threshold' | 'target' | 'windowDays'>): string {
  const side = sloObjective(slo.metric) === 'at_least' ? 'at least' : 'at most';
  const days = slo.windowDays === 1 ? '1 day' : `${slo.windowDays} days`;
  return `${metricLabels[slo.metric]} ${side} ${slo.threshold} in ${percent(slo.target)} of hours over ${days}`;
}

export function percent(share: number): string {
  return `${Math.round(share * 10_000) / 100}%`;
}
