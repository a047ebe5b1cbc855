import type { WeightFormat } from './model/dense-weights.js';

/**
 * sentence-transformers' published vector for all-MiniLM-L6-v2 (its model card example): the
 * first components of the embedding of {@link referenceSentence}. A load that reproduces them
 * has the right weights, tokenizer, graph and pooling.
 */
export const referenceSentence = 'This is an example sentence';
export const referenceComponents = [0.0677, 0.0636, 0.0487] as const;
/**
 * Largest difference allowed per component, by weight format: the published values have four
 * decimals; int8 weights move components by up to ~2e-3 (cosine to the fp32 vector 0.9997).
 * Weights that are wrong, not merely rounded, miss by far more.
 */
export const referenceTolerance: Readonly<Record<WeightFormat, number>> = { fp32: 1e-3, int8: 3e-3 };

/** Why `vector` is not the reference embedding for weights in `format`, or undefined when it is. */
export function referenceMismatch(vector: Float32Array, format: WeightFormat): string | undefined {
  const got = referenceComponents.map((_, i) => vector[i] ?? Number.NaN);
  if (got.every((x, i) => Math.abs(x - referenceComponents[i]!) <= referenceTolerance[format])) return undefined;
  return `reference vector starts ${got.map((x) => x.toFixed(4)).join(', ')}, expected ${referenceComponents.join(', ')}`;
}
