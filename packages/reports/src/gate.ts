import type { JudgedGateSettings, RouteChange } from '@svc/router';
import { ratio } from './ratio.js';

const day = 86_400_000;

/** Outcome figures of a set of decisions (the shape of the decision log's `outcomeStats`). */
export interface OutcomeStats {
  decisions: number;
  /** Outcome `ok`. */
  succeeded: number;
  /** Outcomes other than `ok` and `client_closed`. */
  failed: number;
  /** Decisions whose waterfall made more than one attempt. */
  fallbacks: number;
  /** Latency percentiles of the succeeded decisions, ms. */
  latencyP50Ms: number | null;
  latencyP95Ms: number | null;
}

/** The regression gate's checks (deployment configuration, `SVC_GATE_*`). */
export interface GateSettings extends JudgedGateSettings {
  /** Length of the baseline: the days right before the evaluated day. */
  baselineDays: number;
  /** Decisions both the day and its baseline need; below, the day is `insufficient_data`. */
  minDecisions: number;
  /** The success rate may fall at most this much below the baseline (absolute, 0..1). */
  maxSuccessRateDrop: number;
  /** The fallback rate may rise at most this much above the baseline (absolute, 0..1). */
  maxFallbackRateIncrease: number;
  /** p50 and p95 latency may rise at most this fraction above the baseline (0.25 = +25 %). */
  maxLatencyIncrease: number;
}

export interface GateWindow {
  since: Date;
  until: Date;
}

/**
 * The `count` most recent 24-hour windows ending at `now`, newest first, each with its baseline:
 * the `baselineDays` × 24 hours right before it.
 */
export function gateWindows(now: Date, count: number, baselineDays: number): { day: GateWindow; baseline: GateWindow }[] {
  return Array.from({ length: Math.max(0, count) }, (_, i) => {
    const until = now.getTime() - i * day;
    const since = until - day;
    return {
      day: { since: new Date(since), until: new Date(until) },
      baseline: { since: new Date(since - baselineDays * day), until: new Date(since) },
    };
  });
}

export type GateCheckName = 'success_rate' | 'fallback_rate' | 'p50_latency_ms' | 'p95_latency_ms' | 'judged_quality';

export interface GateCheck {
  check: GateCheckName;
  /** `skipped` without enough data on either side. */
  status: 'pass' | 'fail' | 'skipped';
  current: number | null;
  baseline: number | null;
  /** The bound `current` must respect, derived from the baseline and the configured tolerance. */
  limit: number | null;
  /** `at_least` for the success rate, `at_most` for the rest. */
  direction: 'at_least' | 'at_most';
}

/** The gate's figures of one window. Rates 0..1, latencies ms; null without data. */
export interface GateFigures {
  decisions: number;
  success_rate: number | null;
  fallback_rate: number | null;
  p50_latency_ms: number | null;
  p95_latency_ms: number | null;
}

/** A route change in the gate's list, with where it came from. */
export type GateRouteChange = RouteChange & ({ origin: 'traffic' } | { origin: 'learner'; decided_at: string; decisions: number });

/** One day of `RegressionGateHistory`. */
export interface GateEvaluation {
  /** The evaluated 24 hours, ISO-8601. */
  start: string;
  end: string;
  baseline_start: string;
  baseline_end: string;
  current: GateFigures;
  baseline: GateFigures;
  checks: GateCheck[];
  /**
   * Route changes, each promoted or refused on judged quality, and why: `origin: 'traffic'`, a task
   * kind whose most-served model changed against the baseline; `origin: 'learner'`, a change the
   * per-task learner proposed in the window and the router's gate ruled on before applying it
   * (`decided_at`: its last ruling; `decisions`: requests it was proposed for).
   */
  route_changes?: GateRouteChange[];
  /** `fail` when any check fails; `insufficient_data` below the minimum decisions on either side. */
  status: 'pass' | 'fail' | 'insufficient_data';
}

function figures(stats: OutcomeStats): GateFigures {
  return {
    decisions: stats.decisions,
    success_rate: ratio(stats.succeeded, stats.succeeded + stats.failed),
    fallback_rate: ratio(stats.fallbacks, stats.decisions),
    p50_latency_ms: stats.latencyP50Ms,
    p95_latency_ms: stats.latencyP95Ms,
  };
}

function check(name: GateCheckName, current: number | null, baseline: number | null, bound: (baseline: number) => number, enough: boolean): GateCheck {
  const direction = name === 'success_rate' ? 'at_least' : 'at_most';
  if (!enough || current === null || baseline === null) return { check: name, status: 'skipped', current, baseline, limit: baseline === null ? null : bound(baseline), direction };
  const limit = bound(baseline);
  const pass = direction === 'at_least' ? current >= limit : current <= limit;
  return { check: name, status: pass ? 'pass' : 'fail', current, baseline, limit, direction };
}

/** Evaluates one window's outcomes against its baseline. */
export function evaluateGate(window: { day: GateWindow; baseline: GateWindow }, current: OutcomeStats, baseline: OutcomeStats, settings: GateSettings): GateEvaluation {
  const now = figures(current);
  const before = figures(baseline);
  const enough = current.decisions >= settings.minDecisions && baseline.decisions >= settings.minDecisions;
  const latencyBound = (b: number) => b * (1 + settings.maxLatencyIncrease);
  const checks = [
    check('success_rate', now.success_rate, before.success_rate, (b) => b - settings.maxSuccessRateDrop, enough),
    check('fallback_rate', now.fallback_rate, before.fallback_rate, (b) => b + settings.maxFallbackRateIncrease, enough),
    check('p50_latency_ms', now.p50_latency_ms, before.p50_latency_ms, latencyBound, enough),
    check('p95_latency_ms', now.p95_latency_ms, before.p95_latency_ms, latencyBound, enough),
  ];
  const status = !enough ? 'insufficient_data' : checks.some((c) => c.status === 'fail') ? 'fail' : 'pass';
  return {
    start: window.day.since.toISOString(),
    end: window.day.until.toISOString(),
    baseline_start: window.baseline.since.toISOString(),
    baseline_end: window.baseline.until.toISOString(),
    current: now,
    baseline: before,
    checks,
    status,
  };
}

/**
 * Adds the judged-quality check to a day's evaluation: `fail` when a route change was judged
 * worse than the route it replaced by more than the tolerance, `pass` when every change was
 * promoted, `skipped` when no route changed or the judged pairs could not tell. `current` is the
 * lowest judged win rate of a changed route, `limit` 0.5 - the tolerance. The learner's rulings
 * (`learned`) are listed after the served changes and do not move the check: a refused change was
 * never applied, a promoted one shows in the served routes.
 */
export function withJudgedQuality(evaluation: GateEvaluation, changes: readonly RouteChange[], limit: number, learned: readonly GateRouteChange[] = []): GateEvaluation {
  const judged = changes.filter((c) => c.reason !== 'insufficient_judged_pairs');
  const rates = judged.map((c) => c.judged.win_rate ?? 0);
  const status = judged.some((c) => c.reason === 'judged_worse') ? 'fail' : changes.length > 0 && judged.length === changes.length ? 'pass' : 'skipped';
  const check: GateCheck = { check: 'judged_quality', status, current: rates.length > 0 ? Math.min(...rates) : null, baseline: 0.5, limit, direction: 'at_least' };
  const failed = status === 'fail' && evaluation.status !== 'insufficient_data';
  const listed: GateRouteChange[] = [...changes.map((c) => ({ ...c, origin: 'traffic' as const })), ...learned];
  return { ...evaluation, checks: [...evaluation.checks, check], route_changes: listed, status: failed ? 'fail' : evaluation.status };
}
