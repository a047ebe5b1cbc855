import type { PairRow } from './decisions.js';
import type { Scorer } from './fixed-recall.js';

/** ROC AUC of `score` over rows (ties count half): the chance a random duplicate outranks a random non-duplicate. */
export function auc(rows: readonly PairRow[], score: Scorer): number {
  const ranked = rows.map((r) => ({ s: score(r), positive: r.positive })).sort((a, b) => a.s - b.s);
  let [rankSum, positives, i] = [0, 0, 0];
  while (i < ranked.length) {
    let j = i;
    while (j < ranked.length && ranked[j]!.s === ranked[i]!.s) j++;
    const midRank = (i + j + 1) / 2;
    for (let k = i; k < j; k++) if (ranked[k]!.positive) [rankSum, positives] = [rankSum + midRank, positives + 1];
    i = j;
  }
  const negatives = ranked.length - positives;
  return positives === 0 || negatives === 0 ? 0.5 : (rankSum - (positives * (positives + 1)) / 2) / (positives * negatives);
}

/** Pearson correlation of two scores over rows. */
export function correlation(rows: readonly PairRow[], x: Scorer, y: Scorer): number {
  const xs = rows.map(x);
  const ys = rows.map(y);
  const mean = (v: number[]) => v.reduce((s, a) => s + a, 0) / v.length;
  const [mx, my] = [mean(xs), mean(ys)];
  let [sxy, sxx, syy] = [0, 0, 0];
  xs.forEach((a, i) => {
    sxy += (a - mx) * (ys[i]! - my);
    sxx += (a - mx) ** 2;
    syy += (ys[i]! - my) ** 2;
  });
  return sxy / Math.sqrt(sxx * syy);
}
