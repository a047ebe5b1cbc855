import hashedNgramV1 from './hashed-ngram-v1-512.json' with { type: 'json' };
import { createVerifier, type TrainedVerifier, type Verifier } from './verifier.js';

/** Verifiers trained by `pnpm --filter @svc/evals semantic:hashed --train`, by the embedder they were trained with. */
const trained: Readonly<Record<string, TrainedVerifier>> = {
  [hashedNgramV1.embedder]: hashedNgramV1,
};
const built = new Map<string, Verifier>();

/** The stored data of the verifier trained for `embedderId`, or undefined. */
export function trainedVerifierData(embedderId: string): TrainedVerifier | undefined {
  return Object.hasOwn(trained, embedderId) ? trained[embedderId] : undefined;
}

/** The verifier trained for `embedderId`, or undefined (the cache then decides by similarity alone). */
export function trainedVerifier(embedderId: string): Verifier | undefined {
  const data = trainedVerifierData(embedderId);
  if (!data) return undefined;
  let verifier = built.get(embedderId);
  if (!verifier) {
    verifier = createVerifier(data);
    built.set(embedderId, verifier);
  }
  return verifier;
}
