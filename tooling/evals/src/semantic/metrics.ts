/** A scored pair: the similarity the cache sees and whether a hit would be right. */
export interface Scored {
  score: number;
  positive: boolean;
}

export interface Operating {
  threshold: number;
  precision: number;
  recall: number;
  hits: number;
}

/** Precision and recall of "hit when score >= threshold". */
export function at(rows: readonly Scored[], threshold: number): Operating {
  let tp = 0;
  let fp = 0;
  let positives = 0;
  for (const row of rows) {
    if (row.positive) positives++;
    if (row.score >= threshold) {
      if (row.positive) tp++;
      else fp++;
    }
  }
  return { threshold, precision: tp + fp === 0 ? 1 : tp / (tp + fp), recall: positives === 0 ? 0 : tp / positives, hits: tp + fp };
}

/** Precision and recall at every threshold of a 0.001 grid from `from` to 1, from high to low. */
export function curve(rows: readonly Scored[], from = 0): Operating[] {
  const sorted = [...rows].sort((x, y) => y.score - x.score);
  const positives = rows.filter((r) => r.positive).length;
  const points: Operating[] = [];
  let tp = 0;
  let fp = 0;
  let next = 0;
  for (let milli = 1000; milli >= Math.round(from * 1000); milli--) {
    const threshold = milli / 1000;
    while (next < sorted.length && sorted[next]!.score >= threshold) {
      if (sorted[next]!.positive) tp++;
      else fp++;
      next++;
    }
    points.push({ threshold, precision: tp + fp === 0 ? 1 : tp / (tp + fp), recall: positives === 0 ? 0 : tp / positives, hits: tp + fp });
  }
  return points;
}

/**
 * The lowest threshold of the 0.001 grid (so the highest recall) whose precision is at least
 * `target`, with at least `minHits` hits so a handful of lucky top pairs cannot set it.
 * Undefined when no threshold qualifies.
 */
export function calibrate(rows: readonly Scored[], target: number, minHits = 30): Operating | undefined {
  let best: Operating | undefined;
  for (const point of curve(rows)) if (point.hits >= minHits && point.precision >= target) best = point;
  return best;
}

/** P(X <= k) for X ~ Binomial(n, p). */
export function binomialCdf(k: number, n: number, p: number): number {
  if (k < 0) return 0;
  if (k >= n) return 1;
  if (p <= 0) return 1;
  if (p >= 1) return 0;
  // The shorter tail: P(X <= k) = 1 - P(n - X <= n - k - 1) with n - X ~ Binomial(n, 1 - p).
  if (k > n / 2) return 1 - binomialCdf(n - k - 1, n, 1 - p);
  const [lp, lq] = [Math.log(p), Math.log1p(-p)];
  let logChoose = 0;
  let sum = 0;
  for (let i = 0; i <= k; i++) {
    if (i > 0) logChoose += Math.log(n - i + 1) - Math.log(i);
    sum += Math.exp(logChoose + i * lp + (n - i) * lq);
  }
  return Math.min(1, sum);
}

/** The p in (0, 1) where the decreasing `f(p)` crosses `level` (bisection). */
function solve(f: (p: number) => number, level: number): number {
  let [lo, hi] = [0, 1];
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (f(mid) > level) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/**
 * Exact (Clopper-Pearson) 95 % interval of a proportion `successes / trials`. Its upper bound
 * is below a goal exactly when a one-sided binomial test rejects "the true proportion is at
 * least the goal" at the 2.5 % level: the sample is too bad to be noise.
 */
export function proportionInterval(successes: number, trials: number, alpha = 0.05): { low: number; high: number } {
  if (trials === 0) return { low: 0, high: 1 };
  const high = successes === trials ? 1 : solve((p) => binomialCdf(successes, trials, p), alpha / 2);
  const low = successes === 0 ? 0 : 1 - solve((q) => binomialCdf(trials - successes, trials, q), alpha / 2);
  return { low, high };
}

/**
 * The operating point: the most recall whose precision is at least `target` with at least
 * `minHits` hits; failing that, the most recall at which `target` is still inside the 95 %
 * interval of the measured precision (the goal is not met by the point estimate, but the
 * sample does not refute it). `met` says which rule chose it. Undefined when neither holds.
 */
export function operatingPoint(rows: readonly Scored[], target: number, minHits = 30): (Operating & { met: boolean }) | undefined {
  const met = calibrate(rows, target, minHits);
  if (met) return { ...met, met: true };
  let best: Operating | undefined;
  for (const point of curve(rows)) {
    const tp = Math.round(point.precision * point.hits);
    if (point.hits >= minHits && point.precision >= target - 0.1 && proportionInterval(tp, point.hits).high >= target) best = point;
  }
  return best && { ...best, met: false };
}
