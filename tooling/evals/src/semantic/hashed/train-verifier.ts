import { sameKeyTerms } from '@svc/semantic';
import { featureNames, packModel, pairFeatures, profile, scoreModel, stem, type TrainedVerifier, WordWeights, wordTokens } from '@svc/semantic/training';
import { trainBoostedTrees } from './boosting.js';
import type { QqpPair } from '../dataset.js';

/** The recipe: fixed, so `eval --train` on the same data writes the same model. */
export const recipe = {
  wordWeightBuckets: 16_384,
  boosting: { trees: 200, depth: 4, learningRate: 0.08, lambda: 1, minLeaf: 30, bins: 64 },
};

/** A QQP pair as the verifier sees it. */
export interface VerifiedPair {
  features: Float64Array;
  cosine: number;
  /** The key-term guard passes (a hard rule before the verifier). */
  guard: boolean;
  /** The same words (a hit whatever the model says, as in the verifier's `score`). */
  identical: boolean;
  positive: boolean;
}

/** Features of `pairs` under `weights` (the cosine comes from the production embedder). */
export function pairRows(pairs: readonly QqpPair[], weights: WordWeights, cosine: (pair: QqpPair) => number): VerifiedPair[] {
  return pairs.map((pair) => {
    const [a, b] = [profile(pair.a, weights), profile(pair.b, weights)];
    const c = cosine(pair);
    return { features: pairFeatures(a, b, c, new Float64Array(featureNames.length)), cosine: c, guard: sameKeyTerms(a.terms, b.terms), identical: a.words === b.words, positive: pair.duplicate };
  });
}

/** Learns word weights from the training questions and boosted trees from the training pairs. */
export function trainVerifier(train: readonly QqpPair[], embedderId: string, cosine: (pair: QqpPair) => number): { verifier: Omit<TrainedVerifier, 'threshold' | 'candidateFloor'>; rows: VerifiedPair[] } {
  const questions = [...new Set(train.flatMap((p) => [p.a, p.b]))];
  const weights = WordWeights.learn(
    questions.map((q) => new Set(wordTokens(q).map(stem))),
    recipe.wordWeightBuckets,
  );
  const rows = pairRows(train, weights, cosine);
  const model = trainBoostedTrees(
    rows.map((r) => r.features),
    rows.map((r) => r.positive),
    recipe.boosting,
  );
  const about =
    `Gradient-boosted trees (logistic loss) over ${featureNames.length} pair features, trained by \`pnpm --filter @svc/evals semantic:hashed --train\` ` +
    `on the training side of QQP split by question (${train.length} pairs, ${questions.length} questions): ${JSON.stringify(recipe)}. ` +
    'The threshold is the operating point chosen on the held-out side (docs/caching.md, "Semantic cache").';
  return { verifier: { about, embedder: embedderId, features: [...featureNames], depth: recipe.boosting.depth, ...model, wordWeights: weights.toBase64() }, rows };
}

/**
 * The verifier's decision score of each pair, as the cache decides: -1 (never a hit) when the
 * cosine is under the candidate floor or the key-term guard refuses, 1 for the same words,
 * else the model's probability.
 */
export function decisionScores(rows: readonly VerifiedPair[], model: Omit<TrainedVerifier, 'threshold' | 'candidateFloor'> & { threshold?: number }, candidateFloor: number): { score: number; positive: boolean }[] {
  const packed = packModel({ ...model, threshold: model.threshold ?? 0.5, candidateFloor });
  return rows.map((r) => ({ score: !r.guard || r.cosine < candidateFloor ? -1 : r.identical ? 1 : scoreModel(packed, r.features), positive: r.positive }));
}

/**
 * The cosine floor: the 1st percentile of the cosines of the training pairs the verifier
 * accepts at `threshold`, rounded down to 0.05. Candidates under it are almost never served,
 * so the search need not return them and a miss rarely pays for the verifier.
 */
export function candidateFloorFor(rows: readonly VerifiedPair[], model: Omit<TrainedVerifier, 'threshold' | 'candidateFloor'>, threshold: number): number {
  const accepted: number[] = [];
  for (const [i, s] of decisionScores(rows, model, -1).entries()) if (s.score >= threshold) accepted.push(rows[i]!.cosine);
  accepted.sort((a, b) => a - b);
  const low = accepted[Math.floor(accepted.length * 0.01)] ?? 0;
  return Math.max(0, Math.floor(low * 20) / 20);
}
