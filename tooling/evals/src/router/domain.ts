/**
 * The training prompts' region of embedding space, shipped in the quality model (`TrainingDomain`):
 * spherical k-means prototypes, and the similarity threshold set out of fold so that it keeps a
 * fixed share of training prompts no prototype was fitted on.
 */
import { type TrainingDomain, nearestSimilarity } from '@svc/router';
import { seeded } from './metrics.js';

export interface DomainSettings {
  /** Prototypes (default 128). */
  count: number;
  /** Share of out-of-fold training prompts the threshold keeps (default 0.98, fixed before any OOD set was measured). */
  keep: number;
  /** Folds of the calibration (default 5: every fifth prompt held out in turn). */
  folds: number;
  /** Most prompts one k-means fit reads (evenly spaced; default 6,000). */
  sample: number;
  iterations: number;
  seed: number;
}

export const defaultDomainSettings: DomainSettings = { count: 128, keep: 0.98, folds: 5, sample: 6000, iterations: 12, seed: 7 };

const unit = (v: ArrayLike<number>): Float32Array => {
  let n = 0;
  for (let i = 0; i < v.length; i++) n += v[i]! * v[i]!;
  const s = n > 0 ? 1 / Math.sqrt(n) : 0;
  return Float32Array.from(v, (x) => x * s);
};

const evenly = <T>(xs: readonly T[], most: number): T[] => (xs.length <= most ? [...xs] : Array.from({ length: most }, (_, i) => xs[Math.floor((i * xs.length) / most)]!));

/** Spherical k-means (cosine): unit prototypes, largest cluster first. */
export function fitPrototypes(vectors: readonly Float32Array[], s: DomainSettings): { prototypes: Float32Array; count: number } {
  const points = evenly(vectors, s.sample).map(unit);
  const dims = points[0]!.length;
  const k = Math.min(s.count, points.length);
  const next = seeded(s.seed);
  let centres = Array.from({ length: k }, () => points[Math.floor(next() * points.length)]!);
  let sizes = new Array<number>(k).fill(0);
  for (let it = 0; it < s.iterations; it++) {
    const sums = Array.from({ length: k }, () => new Float64Array(dims));
    sizes = new Array<number>(k).fill(0);
    for (const p of points) {
      let best = 0;
      let bestDot = Number.NEGATIVE_INFINITY;
      for (let c = 0; c < k; c++) {
        const q = centres[c]!;
        let dot = 0;
        for (let i = 0; i < dims; i++) dot += q[i]! * p[i]!;
        if (dot > bestDot) {
          bestDot = dot;
          best = c;
        }
      }
      sizes[best]!++;
      const sum = sums[best]!;
      for (let i = 0; i < dims; i++) sum[i]! += p[i]!;
    }
    // An empty cluster restarts on a random point.
    centres = sums.map((sum, c) => (sizes[c]! > 0 ? unit(sum) : points[Math.floor(next() * points.length)]!));
  }
  const order = centres.map((_, c) => c).sort((a, b) => sizes[b]! - sizes[a]!);
  const prototypes = new Float32Array(k * dims);
  for (const [at, c] of order.entries()) prototypes.set(centres[c]!, at * dims);
  return { prototypes, count: k };
}

/** The value `keep` of `values` are at or above. */
export function keepingThreshold(values: readonly number[], keep: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.floor((1 - keep) * sorted.length + 1e-9)))]!;
}

/** Each training vector's similarity to its nearest prototype when the prototypes were fitted without its fold (every `folds`-th vector). */
export function outOfFoldSimilarities(vectors: readonly Float32Array[], s: DomainSettings = defaultDomainSettings): number[] {
  const outOfFold: number[] = [];
  for (let f = 0; f < s.folds; f++) {
    const fitted = { ...fitPrototypes(vectors.filter((_, i) => i % s.folds !== f), s), minSimilarity: 0, kept: 0 };
    for (let i = f; i < vectors.length; i += s.folds) outOfFold.push(nearestSimilarity(fitted, vectors[i]!));
  }
  return outOfFold;
}

/** Share of `similarities` at or above `threshold`. */
export const keptAt = (similarities: readonly number[], threshold: number): number => similarities.filter((x) => x >= threshold).length / similarities.length;

/**
 * Prototypes of every training vector, with the threshold calibrated out of fold: for each fold,
 * prototypes fitted without it, the held-out prompts' similarity to their nearest; the threshold
 * keeps `keep` of those pooled similarities.
 */
export function trainDomain(vectors: readonly Float32Array[], s: DomainSettings = defaultDomainSettings): TrainingDomain {
  const outOfFold = outOfFoldSimilarities(vectors, s);
  const minSimilarity = keepingThreshold(outOfFold, s.keep);
  return { ...fitPrototypes(vectors, s), minSimilarity, kept: keptAt(outOfFold, minSimilarity) };
}
