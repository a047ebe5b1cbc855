/** One dev prompt: whether the weak and the strong model answered it correctly. */
export interface Row {
  weak: boolean;
  strong: boolean;
}

/** RouteLLM's metrics for one ranking of the validation rows (most "strong needed" first). */
export interface RouterMetrics {
  /** PGR at strong-call share 0, 0.01 .. 1. */
  curve: number[];
  apgr: number;
  /** Smallest strong-call share reaching PGR 0.5 / 0.8. */
  cpt50: number;
  cpt80: number;
  /** Smallest strong-call share reaching 95% of the strong model's accuracy. */
  share95: number;
  /** Cost saved at `share95` versus always calling the strong model. */
  saving95: number;
}

/** Blended USD per million tokens of the pair (RouteLLM uses GPT-4 24.7, Mixtral 0.24). */
export interface Prices {
  strong: number;
  weak: number;
}

/** Accuracy after sending the first k rows of `ordered` to the strong model, for every k. */
function accuracies(ordered: readonly Row[]): Float64Array {
  const n = ordered.length;
  const acc = new Float64Array(n + 1);
  let correct = ordered.reduce((s, r) => s + (r.weak ? 1 : 0), 0);
  acc[0] = correct / n;
  for (let k = 1; k <= n; k++) {
    const row = ordered[k - 1]!;
    correct += (row.strong ? 1 : 0) - (row.weak ? 1 : 0);
    acc[k] = correct / n;
  }
  return acc;
}

export function evaluate(ordered: readonly Row[], prices: Prices): RouterMetrics {
  const n = ordered.length;
  const acc = accuracies(ordered);
  const weak = acc[0]!;
  const strong = acc[n]!;
  const pgr = (k: number) => (acc[k]! - weak) / (strong - weak);
  let area = 0;
  for (let k = 1; k <= n; k++) area += (pgr(k) + pgr(k - 1)) / 2 / n;
  const first = (ok: (k: number) => boolean) => {
    for (let k = 0; k <= n; k++) if (ok(k)) return k / n;
    return 1;
  };
  const share95 = first((k) => acc[k]! >= 0.95 * strong);
  const cost = share95 * prices.strong + (1 - share95) * prices.weak;
  return {
    curve: Array.from({ length: 101 }, (_, i) => pgr(Math.round((i / 100) * n))),
    apgr: area,
    cpt50: first((k) => pgr(k) >= 0.5),
    cpt80: first((k) => pgr(k) >= 0.8),
    share95,
    saving95: 1 - cost / prices.strong,
  };
}

/** Rows ordered by descending score; ties keep input order. */
export function rank<R>(rows: readonly R[], scores: readonly number[]): R[] {
  return rows.map((row, i) => ({ row, score: scores[i]!, i })).sort((a, b) => b.score - a.score || a.i - b.i).map((x) => x.row);
}

/** Deterministic pseudo-random numbers (mulberry32), so the random baseline is reproducible. */
export { seededRandom as seeded } from '@svc/core';
