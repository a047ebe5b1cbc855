/**
 * What the offline evaluation and training tools (tooling/evals/src/semantic) need of the
 * package's run-time parts: the tokenizer and hash the embedder and verifier use, the verifier's
 * features and model format. Not for the gateway: it uses the package's main entry.
 */
export { fnv } from './embedder/hash.js';
export { stem, stopwords, wordTokens } from './embedder/tokens.js';
export { packModel, scoreModel, type VerifierModel } from './verifier/model.js';
export { featureNames, pairFeatures, profile, type TextProfile } from './verifier/pair-features.js';
export { trainedVerifierData } from './verifier/trained.js';
export type { TrainedVerifier } from './verifier/verifier.js';
export { WordWeights } from './verifier/word-weights.js';
