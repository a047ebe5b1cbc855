import * as v from 'valibot';
import { firstColumns, type TokenFeatures } from './token-features.js';

/** A trained layer's weights as PyTorch lays them out (row-major), with its bias. */
interface Layer {
  w: Float32Array;
  b: Float32Array;
}

/**
 * The trained pair head (tooling/evals/src/semantic/pair-model, `GridHead`): everything after
 * the projection of each word piece's state, which the encoder computes with the sentence vector.
 */
export interface PairHeadWeights {
  /** Width of a word piece's features. */
  d: number;
  /** Channels of the two convolutions. */
  h: number;
  /** 3x3 convolution over the grid's two channels (cosine, same word piece): `h x 2 x 3 x 3`. */
  conv1: Layer;
  /** 3x3 convolution, `h x h x 3 x 3`. */
  conv2: Layer;
  /** `16 x (2h + 1)`: max and mean of every channel, and the sentence vectors' cosine. */
  out1: Layer;
  /** `1 x 16`: the logit. */
  out2: Layer;
}

const layerSchema = v.object({ w: v.array(v.number()), b: v.array(v.number()) });
/** The head's part of a pair model's weights file (the projection is the encoder's part). */
export const pairHeadSchema = v.object({
  d: v.pipe(v.number(), v.integer(), v.minValue(1)),
  h: v.pipe(v.number(), v.integer(), v.minValue(1)),
  conv1: layerSchema,
  conv2: layerSchema,
  out1: layerSchema,
  out2: layerSchema,
});

const HIDDEN = 16;

/**
 * Word pieces read of each text: the grid grows with the product of the two lengths (~0.4 ms for
 * two 15-word-piece questions, ~1.3 ms at 27 x 27 here), so longer texts are read to their first
 * 48 (PAWS's sentences average 24; 0.2% are longer), bounding a pair at ~4 ms.
 */
export const MAX_WORD_PIECES = 48;

/** The first {@link MAX_WORD_PIECES} word pieces of a text's features. */
function head48(f: TokenFeatures): TokenFeatures {
  if (f.count <= MAX_WORD_PIECES) return f;
  return { count: MAX_WORD_PIECES, dimensions: f.dimensions, ids: f.ids.subarray(0, MAX_WORD_PIECES), values: f.values.subarray(0, MAX_WORD_PIECES * f.dimensions) };
}

function layer(raw: v.InferOutput<typeof layerSchema>, size: number, outputs: number, name: string): Layer {
  if (raw.w.length !== size || raw.b.length !== outputs) throw new Error(`pair head: ${name} has ${raw.w.length} weights and ${raw.b.length} biases, expected ${size} and ${outputs}`);
  return { w: Float32Array.from(raw.w), b: Float32Array.from(raw.b) };
}

/** Checks a head's weights (valibot, then every layer's size). */
export function parsePairHead(raw: unknown): PairHeadWeights {
  const { d, h, ...rest } = v.parse(pairHeadSchema, raw);
  return {
    d,
    h,
    conv1: layer(rest.conv1, h * 2 * 9, h, 'conv1'),
    conv2: layer(rest.conv2, h * h * 9, h, 'conv2'),
    out1: layer(rest.out1, HIDDEN * (2 * h + 1), HIDDEN, 'out1'),
    out2: layer(rest.out2, HIDDEN, 1, 'out2'),
  };
}

/** Unit-length copies of each word piece's features. */
export function normalised(f: TokenFeatures): Float32Array {
  const { count, dimensions: d, values } = f;
  const out = new Float32Array(count * d);
  for (let t = 0; t < count; t++) {
    let norm = 0;
    for (let k = 0; k < d; k++) norm += values[t * d + k]! ** 2;
    const scale = 1 / Math.max(Math.sqrt(norm), 1e-12);
    for (let k = 0; k < d; k++) out[t * d + k] = values[t * d + k]! * scale;
  }
  return out;
}

/** The interaction grid, channel-major `2 x n x m`: each word-piece pair's cosine, and 1 where they are the same word piece. */
function grid(a: TokenFeatures, b: TokenFeatures): Float32Array {
  const [n, m, d] = [a.count, b.count, a.dimensions];
  const [ua, ub] = [normalised(a), normalised(b)];
  const out = new Float32Array(2 * n * m);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < m; j++) {
      let dot = 0;
      for (let k = 0; k < d; k++) dot += ua[i * d + k]! * ub[j * d + k]!;
      out[i * m + j] = dot;
      out[n * m + i * m + j] = a.ids[i] === b.ids[j] ? 1 : 0;
    }
  }
  return out;
}

/**
 * A 3x3 convolution with zero padding and ReLU over a channel-major `inputs x n x m` grid: each
 * tap adds its weight times the input plane shifted by the tap (contiguous rows, no bounds test in
 * the inner loop), then ReLU.
 */
function conv3x3(x: Float32Array, inputs: number, n: number, m: number, l: Layer, outputs: number): Float32Array {
  const out = new Float32Array(outputs * n * m);
  for (let o = 0; o < outputs; o++) {
    const plane = o * n * m;
    out.fill(l.b[o]!, plane, plane + n * m);
    for (let c = 0; c < inputs; c++) {
      for (let di = -1; di <= 1; di++) {
        for (let dj = -1; dj <= 1; dj++) {
          const w = l.w[((o * inputs + c) * 3 + di + 1) * 3 + dj + 1]!;
          if (w === 0) continue;
          const [j0, j1] = [Math.max(0, -dj), Math.min(m, m - dj)];
          for (let i = Math.max(0, -di); i < Math.min(n, n - di); i++) {
            const source = (c * n + i + di) * m + dj;
            const target = plane + i * m;
            for (let j = j0; j < j1; j++) out[target + j] = out[target + j]! + w * x[source + j]!;
          }
        }
      }
    }
    for (let k = plane; k < plane + n * m; k++) if (out[k]! < 0) out[k] = 0;
  }
  return out;
}

/** `relu?(w x + b)` of a PyTorch `Linear`. */
function dense(l: Layer, x: Float32Array, outputs: number, relu: boolean): Float32Array {
  const out = new Float32Array(outputs);
  for (let o = 0; o < outputs; o++) {
    let sum = l.b[o]!;
    for (let k = 0; k < x.length; k++) sum += l.w[o * x.length + k]! * x[k]!;
    out[o] = relu ? Math.max(0, sum) : sum;
  }
  return out;
}

/**
 * The probability that two texts ask the same thing: their interaction grid read as an image (do
 * the matches run along a diagonal, in the same order, or does a word stand in another place,
 * in another role?), pooled, with their sentence vectors' cosine. Trained in both orders; each text
 * is read to its first {@link MAX_WORD_PIECES} word pieces.
 */
export function scorePair(head: PairHeadWeights, stored: TokenFeatures, asked: TokenFeatures, cosine: number): number {
  if (stored.count === 0 || asked.count === 0 || stored.dimensions < head.d || asked.dimensions < head.d) return 0;
  // Features may carry more numbers after the model's own (the fixed projection the role model's readers use): it reads its first d.
  const [a, b] = [firstColumns(head48(stored), head.d), firstColumns(head48(asked), head.d)];
  const { h } = head;
  const [n, m] = [a.count, b.count];
  const x = conv3x3(conv3x3(grid(a, b), 2, n, m, head.conv1, h), h, n, m, head.conv2, h);
  const pooled = new Float32Array(2 * h + 1);
  for (let c = 0; c < h; c++) {
    let [max, sum] = [-Infinity, 0];
    for (let k = c * n * m; k < (c + 1) * n * m; k++) {
      if (x[k]! > max) max = x[k]!;
      sum += x[k]!;
    }
    pooled[c] = max;
    pooled[h + c] = sum / (n * m);
  }
  pooled[2 * h] = cosine;
  const logit = dense(head.out2, dense(head.out1, pooled, HIDDEN, true), 1, false)[0]!;
  return 1 / (1 + Math.exp(-logit));
}

/**
 * The share of word pieces two texts have in common: the size of the multiset intersection of
 * their ids over the longer text's count (1: the same word pieces, in any order).
 */
export function wordPieceOverlap(a: TokenFeatures, b: TokenFeatures): number {
  const counts = new Map<number, number>();
  for (const id of a.ids) counts.set(id, (counts.get(id) ?? 0) + 1);
  let shared = 0;
  for (const id of b.ids) {
    const left = counts.get(id) ?? 0;
    if (left > 0) {
      shared++;
      counts.set(id, left - 1);
    }
  }
  return shared / Math.max(1, a.count, b.count);
}
