import type { Alignment } from './align.js';
import type { PairScores, Variant } from './pair-scores.js';

/** One question pair as every decision sees it: the cosine, the shipped gate, the alignment scores when the gate passes. */
export interface PairRow {
  cosine: number;
  /** The shipped decision serves it: cosine >= 0.85, guard (and, in GPTCache's protocol, nearest + margin). */
  gate: boolean;
  /** Labelled duplicate (QQP) or the right origin (GPTCache); near misses are all false. */
  positive: boolean;
  scores: PairScores | undefined;
}

/** Whether a decision serves a pair. */
export type Decision = (row: PairRow) => boolean;

export interface QqpPoint {
  precision: number;
  recall: number;
  hits: number;
}

/** Precision and recall of a decision over QQP rows (recall over every labelled duplicate). */
export function qqpPoint(rows: readonly PairRow[], decide: Decision): QqpPoint {
  let [tp, fp, positives] = [0, 0, 0];
  for (const row of rows) {
    if (row.positive) positives++;
    if (!decide(row)) continue;
    if (row.positive) tp++;
    else fp++;
  }
  return { precision: tp + fp === 0 ? 1 : tp / (tp + fp), recall: positives === 0 ? 0 : tp / positives, hits: tp + fp };
}

/** Right and wrong hits of a decision in GPTCache's protocol (rows: one per paraphrase, gate = the shipped lookup served it). */
export function gptCounts(rows: readonly PairRow[], decide: Decision): { right: number; wrong: number } {
  let [right, wrong] = [0, 0];
  for (const row of rows) if (decide(row)) row.positive ? right++ : wrong++;
  return { right, wrong };
}

/** Reads one score of a pair: a variant's precision, recall, F1 or min. */
export type ScoreKey = { variant: Variant; kind: keyof Alignment };

export const scoreOf = (row: PairRow, key: ScoreKey): number => (row.scores ? row.scores[key.variant][key.kind] : -1);

/** The shipped gate, then served only when the alignment score reaches `tau` (or the cosine reaches `band`). */
export function alignmentDecision(key: ScoreKey, tau: number, band = 2): Decision {
  return (row) => row.gate && (row.cosine >= band || scoreOf(row, key) >= tau);
}

/**
 * The threshold of `grid` that gives the most recall on `rows` with precision >= `target`
 * (and at least 30 hits); undefined when none does.
 */
export function chooseTau(rows: readonly PairRow[], grid: readonly number[], make: (tau: number) => Decision, target: number): { tau: number; point: QqpPoint } | undefined {
  let best: { tau: number; point: QqpPoint } | undefined;
  for (const tau of grid) {
    const point = qqpPoint(rows, make(tau));
    if (point.hits >= 30 && point.precision >= target && (!best || point.recall > best.point.recall)) best = { tau, point };
  }
  return best;
}

/** `from`, `from + step`, ... up to `to` (inclusive), rounded to 4 decimals. */
export const grid = (from: number, to: number, step: number): number[] =>
  Array.from({ length: Math.round((to - from) / step) + 1 }, (_, i) => Math.round((from + i * step) * 1e4) / 1e4);
