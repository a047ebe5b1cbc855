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

/**
 * Cosine similarity of `embedding` to its nearest prototype, or the first one found at or above
 * `enough` (the check only needs to know whether one is close).
 */
export function nearestSimilarity(domain: TrainingDomain, embedding: ArrayLike<number>, enough = Number.POSITIVE_INFINITY): number {
  const dims = embedding.length;
  let norm = 0;
  for (let i = 0; i < dims; i++) norm += embedding[i]! * embedding[i]!;
  if (norm === 0) return 0;
  const scaled = enough * Math.sqrt(norm);
  const p = domain.prototypes;
  let best = Number.NEGATIVE_INFINITY;
  for (let c = 0, at = 0; c < domain.count; c++, at += dims) {
    let dot = 0;
    for (let i = 0; i < dims; i++) dot += p[at + i]! * embedding[i]!;
    if (dot > best) {
      best = dot;
      if (best >= scaled) break;
    }
  }
  return best / Math.sqrt(norm);
}

/** True when a prompt's embedding is like the training prompts (close enough to a prototype). */
export const inTrainingDomain = (domain: TrainingDomain, embedding: ArrayLike<number>): boolean =>
  nearestSimilarity(domain, embedding, domain.minSimilarity) >= domain.minSimilarity;
