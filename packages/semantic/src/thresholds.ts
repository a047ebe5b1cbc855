import { trainedVerifierData } from './verifier/trained.js';

/**
 * Similarity-alone thresholds (no verifier), calibrated per embedder on the evaluation data
 * (method: docs/caching.md, "Semantic cache"). An embedder that is neither listed here nor has
 * a trained verifier has no threshold until someone calibrates it: a guessed one either serves
 * wrong answers or never hits. The local hashed embedder has a verifier instead.
 */
export const calibratedThresholds: Readonly<Record<string, number>> = {};

/** The similarity-alone threshold of `embedderId`, or undefined. */
export function similarityThreshold(embedderId: string): number | undefined {
  return Object.hasOwn(calibratedThresholds, embedderId) ? calibratedThresholds[embedderId] : undefined;
}

/**
 * The cosine threshold the cache uses by default for `embedderId`: the candidate floor of its
 * trained verifier (the verifier then decides), else its similarity-alone threshold, else undefined.
 */
export function calibratedThreshold(embedderId: string): number | undefined {
  return trainedVerifierData(embedderId)?.candidateFloor ?? similarityThreshold(embedderId);
}
