/**
 * The features the learned prompt-injection reader sees: the words of a text (letters and digits,
 * lower-cased, any script) and each pair of neighbouring words, hashed into a fixed number of
 * buckets and counted once each. One home for training (tooling/evals) and scoring (here), so the
 * two can never read a text differently.
 */

/** Hash buckets: 2^12; collisions cost little at the vocabulary of a few thousand words the model is trained on. */
export const INJECTION_BUCKETS = 4096;

const WORD = /[\p{L}\p{N}]+/gu;

/** FNV-1a over the UTF-16 code units of `text`, into `INJECTION_BUCKETS`. */
function bucketOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % INJECTION_BUCKETS;
}

/** The distinct buckets of a text's words and word pairs (ascending). */
export function injectionFeatures(text: string): number[] {
  const words = text.toLowerCase().match(WORD) ?? [];
  const buckets = new Set<number>();
  for (let i = 0; i < words.length; i++) {
    buckets.add(bucketOf(words[i]!));
    if (i > 0) buckets.add(bucketOf(`${words[i - 1]} ${words[i]}`));
  }
  return [...buckets].sort((a, b) => a - b);
}

/** A logistic model over `injectionFeatures`: one weight per bucket and a bias. */
export interface InjectionModel {
  weights: Float32Array;
  bias: number;
}

/** P(injection) of a text under `model`. */
export function injectionProbability(model: InjectionModel, text: string): number {
  let z = model.bias;
  for (const bucket of injectionFeatures(text)) z += model.weights[bucket]!;
  return 1 / (1 + Math.exp(-z));
}
