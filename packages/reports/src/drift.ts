import { jensenShannonBits, normalise } from './divergence.js';
import { compareLabels, difference, ratio } from './ratio.js';

/** The dimensions of the traffic and routing mix the drift feed compares. */
export type DriftDimension = 'task_family' | 'complexity' | 'model' | 'tier' | 'outcome';
export const driftDimensions: readonly DriftDimension[] = ['task_family', 'complexity', 'model', 'tier', 'outcome'];

/**
 * The decisions of one organisation in one window that share one value of one dimension (the
 * shape of the decision log's `tally`). Every decision appears once per dimension.
 */
export interface MixRow {
  orgId: string;
  dimension: DriftDimension;
  /** Null where the decision recorded no value. */
  value: string | null;
  decisions: number;
  /** Outcome `ok`. */
  succeeded: number;
  /** Outcomes other than `ok` and `client_closed`. */
  failed: number;
  /** Sum of the succeeded decisions' latencies, ms. */
  latencySumMs: number;
}

/** When the drift feed flags a scope (deployment configuration, `SVC_DRIFT_*`). */
export interface DriftSettings {
  /** A dimension whose Jensen–Shannon divergence exceeds this many bits (0..1) has drifted. */
  jsThresholdBits: number;
  /** Decisions each window needs before anything is flagged. */
  minDecisions: number;
  /** An absolute drop of the success rate (0..1) above this flags the scope. */
  successRateDrop: number;
  /** A relative rise of the mean latency above this (0.5 = +50 %) flags the scope. */
  latencyIncrease: number;
  /** Movers listed per dimension. */
  topMovers: number;
}

/** A value whose share moved between the windows. Shares are 0..1 of the window's decisions. */
export interface DriftMover {
  value: string | null;
  share_before: number;
  share_after: number;
  /** share_after − share_before. */
  delta: number;
}

export interface DimensionDrift {
  dimension: DriftDimension;
  /** 0..1 bits; null when either window has no decisions. */
  js_divergence_bits: number | null;
  /** Above the threshold with both windows at the minimum decision count. */
  drifted: boolean;
  /** The values whose share moved most (largest |delta| first), unchanged values left out. */
  top_movers: DriftMover[];
}

/** A figure of the previous window (`before`), the current one (`after`) and their difference. */
export interface DriftDelta {
  before: number | null;
  after: number | null;
  /** after − before; null when either is. */
  delta: number | null;
}

export type DriftReason = 'distribution_shift' | 'success_rate_drop' | 'latency_increase';

export interface DriftFlag {
  reason: DriftReason;
  /** With `distribution_shift`: the dimension that shifted. */
  dimension?: DriftDimension;
  /** The divergence in bits, the drop of the success rate, or the relative latency rise. */
  value: number;
  threshold: number;
}

/** One scope of the `DriftFeed`. */
export interface DriftEntry {
  /** `fleet` or `tenant:<org_id>`. */
  scope: string;
  decisions: { before: number; after: number };
  dimensions: DimensionDrift[];
  /** Succeeded / (succeeded + failed), 0..1. */
  success_rate: DriftDelta;
  /** Mean latency of succeeded decisions, ms. */
  mean_latency_ms: DriftDelta;
  /** True when any flag is raised; never below the minimum decision count in either window. */
  drifted: boolean;
  flags: DriftFlag[];
}

interface WindowMix {
  decisions: number;
  succeeded: number;
  failed: number;
  latencySumMs: number;
  counts: Map<DriftDimension, Map<string | null, number>>;
}

function emptyMix(): WindowMix {
  return { decisions: 0, succeeded: 0, failed: 0, latencySumMs: 0, counts: new Map(driftDimensions.map((d) => [d, new Map()])) };
}

function add(mix: WindowMix, row: MixRow): void {
  const counts = mix.counts.get(row.dimension);
  if (!counts) return;
  counts.set(row.value, (counts.get(row.value) ?? 0) + row.decisions);
  // Each decision has exactly one outcome: the outcome rows sum to the window's totals.
  if (row.dimension === 'outcome') {
    mix.decisions += row.decisions;
    mix.succeeded += row.succeeded;
    mix.failed += row.failed;
    mix.latencySumMs += row.latencySumMs;
  }
}

function movers(before: ReadonlyMap<string | null, number>, after: ReadonlyMap<string | null, number>, top: number): DriftMover[] {
  const p = normalise(before) ?? new Map<string | null, number>();
  const q = normalise(after) ?? new Map<string | null, number>();
  const moved: DriftMover[] = [];
  for (const value of new Set([...p.keys(), ...q.keys()])) {
    const shareBefore = p.get(value) ?? 0;
    const shareAfter = q.get(value) ?? 0;
    if (shareBefore !== shareAfter) moved.push({ value, share_before: shareBefore, share_after: shareAfter, delta: shareAfter - shareBefore });
  }
  return moved.sort((a, b) => Math.abs(b.delta) - Math.abs(a.delta) || compareLabels(a.value, b.value)).slice(0, top);
}

/** Compares one scope's previous window (`before`) with its current one (`after`). */
export function compareWindows(scope: string, before: WindowMix, after: WindowMix, settings: DriftSettings): DriftEntry {
  const enough = before.decisions >= settings.minDecisions && after.decisions >= settings.minDecisions;
  const flags: DriftFlag[] = [];
  const dimensions = driftDimensions.map((dimension): DimensionDrift => {
    const p = before.counts.get(dimension) ?? new Map();
    const q = after.counts.get(dimension) ?? new Map();
    const divergence = jensenShannonBits(p, q);
    const drifted = enough && divergence !== null && divergence > settings.jsThresholdBits;
    if (drifted) flags.push({ reason: 'distribution_shift', dimension, value: divergence, threshold: settings.jsThresholdBits });
    return { dimension, js_divergence_bits: divergence, drifted, top_movers: movers(p, q, settings.topMovers) };
  });
  const success = { before: ratio(before.succeeded, before.succeeded + before.failed), after: ratio(after.succeeded, after.succeeded + after.failed) };
  const latency = { before: ratio(before.latencySumMs, before.succeeded), after: ratio(after.latencySumMs, after.succeeded) };
  if (enough && success.before !== null && success.after !== null && success.before - success.after > settings.successRateDrop) {
    flags.push({ reason: 'success_rate_drop', value: success.before - success.after, threshold: settings.successRateDrop });
  }
  if (enough && latency.before !== null && latency.after !== null && latency.before > 0) {
    const rise = (latency.after - latency.before) / latency.before;
    if (rise > settings.latencyIncrease) flags.push({ reason: 'latency_increase', value: rise, threshold: settings.latencyIncrease });
  }
  return {
    scope,
    decisions: { before: before.decisions, after: after.decisions },
    dimensions,
    success_rate: { ...success, delta: difference(success.before, success.after) },
    mean_latency_ms: { ...latency, delta: difference(latency.before, latency.after) },
    drifted: flags.length > 0,
    flags,
  };
}

/**
 * The drift feed: the fleet (every row) first, then each tenant by decisions in the current
 * window, then in the previous one. With `tenantId` only that tenant's scope, also when it made
 * no decisions (the rows are expected to be filtered to it already).
 */
export function driftFeed(before: readonly MixRow[], after: readonly MixRow[], settings: DriftSettings, tenantId?: string): DriftEntry[] {
  if (tenantId !== undefined) {
    const [p, q] = [emptyMix(), emptyMix()];
    for (const row of before) add(p, row);
    for (const row of after) add(q, row);
    return [compareWindows(`tenant:${tenantId}`, p, q, settings)];
  }
  const fleet = { before: emptyMix(), after: emptyMix() };
  const tenants = new Map<string, { before: WindowMix; after: WindowMix }>();
  const collect = (rows: readonly MixRow[], side: 'before' | 'after') => {
    for (const row of rows) {
      const tenant = tenants.get(row.orgId) ?? { before: emptyMix(), after: emptyMix() };
      tenants.set(row.orgId, tenant);
      add(tenant[side], row);
      add(fleet[side], row);
    }
  };
  collect(before, 'before');
  collect(after, 'after');
  const ordered = [...tenants].sort(
    ([a, x], [b, y]) => y.after.decisions - x.after.decisions || y.before.decisions - x.before.decisions || compareLabels(a, b),
  );
  return [compareWindows('fleet', fleet.before, fleet.after, settings), ...ordered.map(([orgId, t]) => compareWindows(`tenant:${orgId}`, t.before, t.after, settings))];
}
