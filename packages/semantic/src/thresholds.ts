import { trainedVerifierData } from './verifier/trained.js';

/** How an embedder without a verifier decides a hit, calibrated on the evaluation data. */
export interface SimilarityCalibration {
  /** Lowest cosine a stored question needs to be served. */
  threshold: number;
  /**
   * A hit is refused when another stored question the guard lets through is within this much
   * cosine of the best: the question sits between two stored ones and either answer may be wrong.
   */
  margin: number;
  /** Nearest entries examined per lookup (the margin compares the best with the others). */
  candidates: number;
}

/**
 * Similarity-alone calibrations (no verifier) per embedder id (method and figures:
 * docs/caching.md, "Semantic cache"; `pnpm --filter @svc/evals semantic`). An embedder that is
 * neither listed here nor has a trained verifier has no threshold until someone calibrates it: a
 * guessed one either serves wrong answers or never hits. The local hashed embedder has a
 * verifier instead.
 */
export const calibrations: Readonly<Record<string, SimilarityCalibration>> = {
  // The shared sentence encoder (@svc/encoder): GPTCache's protocol and QQP dev, near-miss guard on.
  'all-MiniLM-L6-v2': { threshold: 0.85, margin: 0.02, candidates: 10 },
};

/** Similarity-alone thresholds by embedder id (the `threshold` of {@link calibrations}). */
export const calibratedThresholds: Readonly<Record<string, number>> = Object.fromEntries(Object.entries(calibrations).map(([id, c]) => [id, c.threshold]));

/** The similarity-alone calibration of `embedderId`, or undefined. */
export function similarityCalibration(embedderId: string): SimilarityCalibration | undefined {
  return Object.hasOwn(calibrations, embedderId) ? calibrations[embedderId] : undefined;
}

/** The similarity-alone threshold of `embedderId`, or undefined. */
export function similarityThreshold(embedderId: string): number | undefined {
  return similarityCalibration(embedderId)?.threshold;
}

/**
 * The cosine threshold the cache uses by default for `embedderId`: the candidate floor of its
 * trained verifier (the verifier then decides), else its similarity-alone threshold, else undefined.
 */
export function calibratedThreshold(embedderId: string): number | undefined {
  return trainedVerifierData(embedderId)?.candidateFloor ?? similarityThreshold(embedderId);
}
