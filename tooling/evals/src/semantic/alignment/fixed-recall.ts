import type { PairRow } from './decisions.js';
import { type Judged, judge, type Verdict } from './report-lines.js';

/** A family of decisions: the shipped gate, then served when this score reaches a threshold (-Infinity: never). */
export type Scorer = (row: PairRow) => number;

/**
 * The highest threshold at which the family reaches `recall` on the calibration half, and the
 * verdict there (held-out, GPTCache and near misses judged at that same threshold).
 */
export function atCalibrationRecall(sets: Judged, score: Scorer, recall: number): { tau: number; verdict: Verdict } | undefined {
  const positives = sets.calibration.filter((r) => r.positive).length;
  const ranked = sets.calibration
    .filter((r) => r.gate)
    .map((r) => ({ s: score(r), positive: r.positive }))
    .filter((r) => r.s > Number.NEGATIVE_INFINITY)
    .sort((a, b) => b.s - a.s);
  let tp = 0;
  for (const r of ranked) {
    if (r.positive) tp++;
    if (tp / positives >= recall) return { tau: r.s, verdict: judge(sets, (row) => row.gate && score(row) >= r.s) };
  }
  return undefined;
}
