/**
 * What a service-level objective can measure (`POST /v1/slo`). Rates are fractions (0..1) of
 * requests, latencies milliseconds of succeeded requests, cost USD.
 */
export const sloMetrics = [
  'availability',
  'error_rate',
  'latency_p50_ms',
  'latency_p95_ms',
  'latency_p99_ms',
  'cache_hit_rate',
  'fallback_rate',
  'cost_per_request_usd',
] as const;

export type SloMetric = (typeof sloMetrics)[number];

/** Which side of the threshold is good: `at_least` for availability and the cache hit rate, `at_most` otherwise. */
export type SloObjective = 'at_least' | 'at_most';

export function sloObjective(metric: SloMetric): SloObjective {
  return metric === 'availability' || metric === 'cache_hit_rate' ? 'at_least' : 'at_most';
}

export function isSloMetric(value: string): value is SloMetric {
  return (sloMetrics as readonly string[]).includes(value);
}

/** How loud an alert is. */
export const alertSeverities = ['info', 'warning', 'critical'] as const;

export type AlertSeverity = (typeof alertSeverities)[number];

/** What raised an alert. */
export const alertKinds = ['slo_breach', 'breaker_open', 'limit_spike'] as const;

export type AlertKind = (typeof alertKinds)[number];
