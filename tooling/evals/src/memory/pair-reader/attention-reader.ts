/**
 * The attention pair reader's forward pass (`attention_train.py`, docs/memory.md, nineteenth pass):
 * "does B replace stored A", from the shared encoder's frozen per-word-piece token states of both
 * texts read together. Each word piece of A is soft-aligned to B's (dot product of projected
 * states), compared with what it aligned to (the two, their product and difference), and the
 * comparisons are pooled (mean and max) and classified; likewise for B.
 */

/** A fitted head as `attention_train.py --out` writes it (row-major matrices as nested arrays). */
export interface AttentionHead {
  id: string;
  /** Per-dimension mean and spread of the training states (inputs are standardised). */
  mean: number[];
  std: number[];
  Wf: number[][];
  bf: number[];
  Wp: number[][];
  bp: number[];
  Wg: number[][];
  bg: number[];
  Wh: number[][];
  bh: number[];
  Wo: number[][];
  bo: number[];
}

/** One text's token states: `n` rows of `states.length / n` numbers. */
export interface PieceStates {
  n: number;
  states: Float32Array;
}

const relu = (x: number) => Math.max(x, 0);

/** `rows x W + b` for `rows` given as arrays, with an optional ReLU. */
function affine(rows: readonly Float64Array[], W: readonly number[][], b: readonly number[], withRelu: boolean): Float64Array[] {
  return rows.map((x) => {
    const out = Float64Array.from(b);
    for (let i = 0; i < x.length; i++) {
      const xi = x[i]!;
      if (xi === 0) continue;
      const row = W[i]!;
      for (let j = 0; j < out.length; j++) out[j]! += xi * row[j]!;
    }
    return withRelu ? out.map(relu) : out;
  });
}

const dot = (a: Float64Array, b: Float64Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);

/** Softmax-weighted sum of `values` by `scores`. */
function attend(scores: readonly number[], values: readonly Float64Array[]): Float64Array {
  const top = Math.max(...scores);
  const weights = scores.map((s) => Math.exp(s - top));
  const total = weights.reduce((s, w) => s + w, 0);
  const out = new Float64Array(values[0]!.length);
  for (const [k, v] of values.entries()) for (let j = 0; j < out.length; j++) out[j]! += (weights[k]! / total) * v[j]!;
  return out;
}

/** Compare each piece with what it aligned to, then pool: mean and max over the pieces. */
function compareAndPool(head: AttentionHead, own: readonly Float64Array[], aligned: readonly Float64Array[]): Float64Array {
  const joined = own.map((p, i) => {
    const a = aligned[i]!;
    return Float64Array.from([...p, ...a, ...p.map((x, j) => x * a[j]!), ...p.map((x, j) => x - a[j]!)]);
  });
  const G = affine(joined, head.Wg, head.bg, true);
  const d = head.bg.length;
  const mean = new Float64Array(d);
  const max = new Float64Array(d);
  for (const g of G) for (let j = 0; j < d; j++) {
    mean[j]! += g[j]! / G.length;
    max[j] = Math.max(max[j]!, g[j]!);
  }
  return Float64Array.from([...mean, ...max]);
}

/** The standardised rows of one text. */
function standardised(head: AttentionHead, text: PieceStates): Float64Array[] {
  const D = head.mean.length;
  return Array.from({ length: text.n }, (_, r) => Float64Array.from({ length: D }, (_, i) => (text.states[r * D + i]! - head.mean[i]!) / head.std[i]!));
}

/** The head's probability that B replaces A (its "replace" output; the first three are SNLI's classes). */
export function attentionScore(head: AttentionHead, a: PieceStates, b: PieceStates): number {
  const [Xa, Xb] = [standardised(head, a), standardised(head, b)];
  const [Ha, Hb] = [affine(Xa, head.Wf, head.bf, true), affine(Xb, head.Wf, head.bf, true)];
  const [Pa, Pb] = [affine(Xa, head.Wp, head.bp, false), affine(Xb, head.Wp, head.bp, false)];
  const E = Ha.map((ha) => Hb.map((hb) => dot(ha, hb)));
  const beta = E.map((row) => attend(row, Pb));
  const alpha = Hb.map((_, j) => attend(E.map((row) => row[j]!), Pa));
  const v = Float64Array.from([...compareAndPool(head, Pa, beta), ...compareAndPool(head, Pb, alpha)]);
  const [h] = affine([v], head.Wh, head.bh, true);
  const [out] = affine([h!], head.Wo, head.bo, false);
  return 1 / (1 + Math.exp(-out![3]!));
}

/** What the reader needs of the shared encoder. */
export interface TokenEncoder {
  embedWithTokens(texts: readonly string[]): Promise<{ tokens: { ids: Int32Array; states: Float32Array } }[]>;
}

/** The head's score for each pair (A, B) of texts, one token-state pass over their distinct texts. */
export async function attentionScores(encoder: TokenEncoder, head: AttentionHead, pairs: readonly (readonly [string, string])[]): Promise<number[]> {
  const texts = [...new Set(pairs.flat())];
  const states = new Map<string, PieceStates>();
  for (let i = 0; i < texts.length; i += 32)
    for (const [j, e] of (await encoder.embedWithTokens(texts.slice(i, i + 32))).entries()) states.set(texts[i + j]!, { n: e.tokens.ids.length, states: e.tokens.states });
  return pairs.map(([a, b]) => attentionScore(head, states.get(a)!, states.get(b)!));
}

/** Whether a reader file holds an attention head (else the eighteenth pass's relation head). */
export const isAttentionHead = (head: object): head is AttentionHead => 'Wf' in head;
