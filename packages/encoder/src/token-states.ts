/**
 * The contextual token states of one text, from the same forward pass that made its sentence
 * vector (the vector is their mean over every word piece, `[CLS]` and `[SEP]` included, normalised).
 */
export interface TokenStates {
  /** Word-piece ids between `[CLS]` and `[SEP]`, in order, truncated like the vector's input. */
  ids: Int32Array;
  /** `ids.length x dimensions` row-major: the last encoder block's output per word piece, not normalised. */
  states: Float32Array;
}

/** A sentence vector with its token states. */
export interface SentenceWithTokens {
  /** The L2-normalised sentence vector, as `embed` returns it. */
  vector: Float32Array;
  tokens: TokenStates;
}

/** Several texts' token states in three flat arrays, for one transfer between threads. */
export interface PackedTokens {
  /** Word pieces per text. */
  counts: Int32Array;
  /** Every text's ids, one after the other. */
  ids: Int32Array;
  /** Every text's states, one after the other (`sum(counts) x dimensions`). */
  states: Float32Array;
}

/** Packs per-text token states (in text order) into {@link PackedTokens}. */
export function packTokens(perText: readonly TokenStates[], dimensions: number): PackedTokens {
  const counts = Int32Array.from(perText, (t) => t.ids.length);
  const total = counts.reduce((s, n) => s + n, 0);
  const ids = new Int32Array(total);
  const states = new Float32Array(total * dimensions);
  let at = 0;
  for (const t of perText) {
    ids.set(t.ids, at);
    states.set(t.states, at * dimensions);
    at += t.ids.length;
  }
  return { counts, ids, states };
}

/** The inverse of {@link packTokens}: views into the packed arrays, one per text. */
export function unpackTokens(packed: PackedTokens, dimensions: number): TokenStates[] {
  const out: TokenStates[] = [];
  let at = 0;
  for (const count of packed.counts) {
    out.push({ ids: packed.ids.subarray(at, at + count), states: packed.states.subarray(at * dimensions, (at + count) * dimensions) });
    at += count;
  }
  return out;
}
