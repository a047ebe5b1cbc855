/**
 * Operating similarity thresholds, calibrated per embedder by `pnpm --filter @svc/semantic eval`
 * (method and figures: docs/caching.md, "Semantic cache"). An embedder that is not listed has
 * no threshold until someone calibrates it: a guessed one either serves wrong answers or
 * never hits.
 */
export const calibratedThresholds: Readonly<Record<string, number>> = {
  'hashed-ngram-v1-512': 0.988,
};

/** The calibrated threshold of `embedderId`, or undefined. */
export function calibratedThreshold(embedderId: string): number | undefined {
  return Object.hasOwn(calibratedThresholds, embedderId) ? calibratedThresholds[embedderId] : undefined;
}
