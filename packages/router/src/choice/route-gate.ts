/** z of a two-sided 95 % interval. */
const Z95 = 1.959964;

/** A proportion's interval, 0..1. */
export interface Interval {
  low: number;
  high: number;
}

/**
 * Wilson's score interval for `successes` out of `n` (successes may be fractional: a tie counts
 * half), two-sided at `z` (default 95 %). Unlike the normal approximation it stays inside 0..1
 * and is honest at small `n` and near 0 or 1. Null when `n` is 0.
 */
export function wilsonInterval(successes: number, n: number, z = Z95): Interval | null {
  if (n <= 0) return null;
  const p = successes / n;
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/** Judged pairs of one model: its wins, ties and how many were judged. */
export interface JudgedCounts {
  samples: number;
  wins: number;
  ties: number;
}

/** A judged win rate: ties count half; with its 95 % Wilson interval. */
export interface JudgedWinRate {
  samples: number;
  win_rate: number | null;
  interval: Interval | null;
}

export function judgedWinRate(counts: JudgedCounts): JudgedWinRate {
  const score = counts.wins + counts.ties / 2;
  return { samples: counts.samples, win_rate: counts.samples > 0 ? score / counts.samples : null, interval: wilsonInterval(score, counts.samples) };
}

/** How the regression gate rules on judged quality (the gateway's `SVC_GATE_MAX_JUDGED_DROP`, `SVC_GATE_MIN_JUDGED_PAIRS`). */
export interface JudgedGateSettings {
  /** A new route's judged win rate against the old one may be at most this far below 0.5 (0..0.5). */
  maxJudgedQualityDrop: number;
  /** Judged pairs of the new route against the old one needed before it can be promoted. */
  minJudgedPairs: number;
}

/** The gateway's defaults: a drop of at most 0.05 in win rate, at least 20 judged pairs. */
export const defaultJudgedGate: JudgedGateSettings = { maxJudgedQualityDrop: 0.05, minJudgedPairs: 20 };

/** One model judged against another on a task kind (wins are `model`'s). */
export interface PairCounts extends JudgedCounts {
  taskKind: string;
  model: string;
  against: string;
}

/** What the gate did with a change of a task kind's route. */
export interface RouteChange {
  task_kind: string;
  from: string;
  to: string;
  status: 'promoted' | 'refused';
  /** `judged_not_worse`, `judged_worse` or `insufficient_judged_pairs`. */
  reason: 'judged_not_worse' | 'judged_worse' | 'insufficient_judged_pairs';
  /** The new route's judged win rate against the old one, with its interval. */
  judged: JudgedWinRate;
  /** The least win rate the new route may have: 0.5 - the tolerance. */
  limit: number;
}

/**
 * A learned change of a task kind's route is promoted only when its judged quality is not worse
 * than the current route's by more than the tolerance, with confidence: the lower bound of its
 * win rate against the old route (ties half, 95 % Wilson) is at least 0.5 - tolerance. It is
 * refused as `judged_worse` when the whole interval lies below that, and as
 * `insufficient_judged_pairs` when fewer than the minimum pairs were judged or the interval
 * straddles the limit.
 */
export function judgeRouteChange(change: { taskKind: string; from: string; to: string }, pairs: readonly PairCounts[], settings: JudgedGateSettings): RouteChange {
  const found = pairs.find((p) => p.taskKind === change.taskKind && p.model === change.to && p.against === change.from);
  const judged = judgedWinRate(found ?? { samples: 0, wins: 0, ties: 0 });
  const limit = 0.5 - settings.maxJudgedQualityDrop;
  const base = { task_kind: change.taskKind, from: change.from, to: change.to, judged, limit };
  if (judged.interval && judged.samples >= settings.minJudgedPairs) {
    if (judged.interval.low >= limit) return { ...base, status: 'promoted', reason: 'judged_not_worse' };
    if (judged.interval.high < limit) return { ...base, status: 'refused', reason: 'judged_worse' };
  }
  return { ...base, status: 'refused', reason: 'insufficient_judged_pairs' };
}
