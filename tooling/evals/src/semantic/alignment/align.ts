/** BERTScore-style greedy alignment of two questions' token states (rows of unit length). */
export interface Alignment {
  /** Mean over the asked question's tokens of the best cosine to a stored question's token. */
  precision: number;
  /** Mean over the stored question's tokens of the best cosine to an asked question's token. */
  recall: number;
  f1: number;
  min: number;
  /** The worst-matched token of either side (weights aside): one added or replaced word shows here undiluted. */
  worst: number;
}

/** One side of a comparison: unit-length token rows (`weights.length x dimensions`) and a weight per token. */
export interface TokenSide {
  states: Float32Array;
  weights: Float64Array;
}

const D = 384;

/** `best[i]`: the highest cosine of row `i` of `a` to any row of `b`, and `best` of `b` against `a` in `back`. */
function bestMatches(a: Float32Array, b: Float32Array): { forward: Float64Array; back: Float64Array } {
  const [n, m] = [a.length / D, b.length / D];
  const forward = new Float64Array(n).fill(-1);
  const back = new Float64Array(m).fill(-1);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < m; j++) {
      let s = 0;
      for (let k = 0; k < D; k++) s += a[i * D + k]! * b[j * D + k]!;
      if (s > forward[i]!) forward[i] = s;
      if (s > back[j]!) back[j] = s;
    }
  }
  return { forward, back };
}

function weightedMean(values: Float64Array, weights: Float64Array): number {
  let [s, w] = [0, 0];
  for (let i = 0; i < values.length; i++) {
    s += values[i]! * weights[i]!;
    w += weights[i]!;
  }
  return w > 0 ? s / w : 0;
}

/**
 * Greedy token alignment (Zhang et al., BERTScore): every token of each side is matched to its most
 * similar token of the other side; precision reads the asked side, recall the stored side. A side
 * with no tokens scores 0.
 */
export function align(asked: TokenSide, stored: TokenSide): Alignment {
  if (asked.weights.length === 0 || stored.weights.length === 0) return { precision: 0, recall: 0, f1: 0, min: 0, worst: 0 };
  const { forward, back } = bestMatches(asked.states, stored.states);
  const precision = weightedMean(forward, asked.weights);
  const recall = weightedMean(back, stored.weights);
  const f1 = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
  return { precision, recall, f1, min: Math.min(precision, recall), worst: Math.min(...forward, ...back) };
}

/** The rows of `states` whose `keep` is true, with their weights. */
export function selectTokens(states: Float32Array, weights: readonly number[], keep: readonly boolean[]): TokenSide {
  const rows = keep.flatMap((k, i) => (k ? [i] : []));
  const out = new Float32Array(rows.length * D);
  rows.forEach((r, i) => {
    out.set(states.subarray(r * D, (r + 1) * D), i * D);
  });
  return { states: out, weights: Float64Array.from(rows, (r) => weights[r]!) };
}
