import { type PrototypeScanner, createPrototypeScanner } from './prototype-scan.js';

/**
 * The region of embedding space a quality model was trained on: spherical k-means prototypes of
 * its training prompts' sentence embeddings, and the least cosine similarity to the nearest one
 * at which a prompt still counts as like the training data (calibrated out of fold: the share of
 * unseen training prompts it keeps is `kept`). A prompt below it is read as the prior.
 */
export type TrainingDomain = {
  /** `count x dimensions`, row-major, each row unit length, the largest cluster first (the check stops at the first close one). */
  prototypes: Float32Array;
  count: number;
  minSimilarity: number;
  /** Share of out-of-fold training prompts at or above `minSimilarity` (what the threshold was set to keep). */
  kept: number;
};

/** Each domain's WebAssembly scanner (by its prototypes), or null where it cannot run. */
const scanners = new WeakMap<Float32Array, PrototypeScanner | null>();

function scannerOf(domain: TrainingDomain, dims: number): PrototypeScanner | undefined {
  if (domain.prototypes.length !== domain.count * dims) return undefined;
  let scanner = scanners.get(domain.prototypes);
  if (scanner === undefined) {
    scanner = createPrototypeScanner(domain.prototypes, domain.count, dims) ?? null;
    scanners.set(domain.prototypes, scanner);
  }
  return scanner ?? undefined;
}

/**
 * Cosine similarity of `embedding` to its nearest prototype, or the first one found at or above
 * `enough` (the check only needs to know whether one is close). The scan runs in WebAssembly
 * where it can (`prototype-scan.ts`, the same arithmetic), else in `dotAt`.
 */
export function nearestSimilarity(domain: TrainingDomain, embedding: ArrayLike<number>, enough = Number.POSITIVE_INFINITY): number {
  const dims = embedding.length;
  let norm = 0;
  for (let i = 0; i < dims; i++) norm += embedding[i]! * embedding[i]!;
  if (norm === 0) return 0;
  const scaled = enough * Math.sqrt(norm);
  const scanner = scannerOf(domain, dims);
  return (scanner ? scanner(embedding, scaled) : scanInJs(domain, embedding, scaled)) / Math.sqrt(norm);
}

/** The scan in JavaScript: the best dot product, or the first at or above `scaled`. */
export function scanInJs(domain: TrainingDomain, embedding: ArrayLike<number>, scaled: number): number {
  const dims = embedding.length;
  let best = Number.NEGATIVE_INFINITY;
  for (let at = 0, end = domain.count * dims; at < end; at += dims) {
    const dot = dotAt(domain.prototypes, at, embedding);
    if (dot > best) {
      best = dot;
      if (best >= scaled) break;
    }
  }
  return best;
}

/**
 * The dot product of `embedding` with the row of `rows` starting at `at`, on four accumulators:
 * independent additions the CPU overlaps (1.8x faster than one running sum over the shipped
 * 128 x 384 prototypes, where an unlike prompt reads every row).
 */
function dotAt(rows: Float32Array, at: number, embedding: ArrayLike<number>): number {
  const dims = embedding.length;
  const whole = dims - (dims % 4);
  let a = 0;
  let b = 0;
  let c = 0;
  let d = 0;
  for (let i = 0; i < whole; i += 4) {
    a += rows[at + i]! * embedding[i]!;
    b += rows[at + i + 1]! * embedding[i + 1]!;
    c += rows[at + i + 2]! * embedding[i + 2]!;
    d += rows[at + i + 3]! * embedding[i + 3]!;
  }
  for (let i = whole; i < dims; i++) a += rows[at + i]! * embedding[i]!;
  return a + b + c + d;
}

/** True when a prompt's embedding is like the training prompts (close enough to a prototype). */
export const inTrainingDomain = (domain: TrainingDomain, embedding: ArrayLike<number>): boolean =>
  nearestSimilarity(domain, embedding, domain.minSimilarity) >= domain.minSimilarity;
