/**
 * The lowest similarity at which a stored fact is injected, per embedder, calibrated by
 * `tooling/evals/memory` (docs/memory.md has the curve): the point where at most 1% of unrelated
 * prompts get anything injected from a user's 50 facts. An embedder without a calibration
 * gets the strict fallback, which injects less rather than more.
 */
const calibrated: Readonly<Record<string, number>> = {
  'hashed-ngram-v1-512': 0.5,
};

const FALLBACK = 0.6;

export function recallThreshold(embedderId: string): number {
  return calibrated[embedderId] ?? FALLBACK;
}
