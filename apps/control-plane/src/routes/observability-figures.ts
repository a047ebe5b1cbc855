import type { TrafficFigures } from '@svc/db';
import { ratio } from './observability-scope.js';

/** Wire pieces shared by `/metrics/summary`, `/metrics/swc` and `/benchmarks`. */

const ms = (value: number | null) => (value === null ? null : Math.round(value * 10) / 10);

/** Latency of the succeeded requests, ms (null without any). */
export function latencyWire(f: TrafficFigures) {
  return { mean: ms(f.latencyMeanMs), p50: ms(f.latencyP50Ms), p95: ms(f.latencyP95Ms), p99: ms(f.latencyP99Ms) };
}

export function tokensWire(f: TrafficFigures) {
  return { prompt: f.promptTokens, completion: f.completionTokens, cached: f.cachedTokens, total: f.promptTokens + f.completionTokens };
}

/** Spend in USD; savings against the baseline model (routing to cheaper models, cache hits). */
export function spendWire(f: TrafficFigures) {
  const savings = f.baselineCostUsd - f.costUsd;
  return {
    cost_usd: f.costUsd,
    baseline_cost_usd: f.baselineCostUsd,
    savings_usd: savings,
    savings_pct: Math.round(ratio(savings, f.baselineCostUsd) * 10_000) / 100,
  };
}

/** Outcomes; the error rate is failed / requests (0..1). */
export function requestsWire(f: TrafficFigures) {
  return {
    total: f.requests,
    succeeded: f.succeeded,
    failed: f.failed,
    client_closed: f.clientClosed,
    fallbacks: f.fallbacks,
    error_rate: ratio(f.failed, f.requests),
  };
}

/** Cache hits; the hit rate is hits / requests (0..1). */
export function cacheWire(f: TrafficFigures) {
  return { hits: f.cacheHits, exact_hits: f.exactHits, semantic_hits: f.semanticHits, hit_rate: ratio(f.cacheHits, f.requests) };
}
