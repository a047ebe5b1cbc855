export { type EmbedManyOptions, embedMany } from './embed-many.js';
export { type WeightFormat, weightFormats } from './model/dense-weights.js';
export { referenceComponents, referenceSentence } from './reference.js';
export {
  createSentenceEncoder,
  type SentenceEncoder,
  type SentenceEncoderSettings,
  type SentenceEncoderStatus,
} from './sentence-encoder.js';
export { type PackedTokens, packTokens, type SentenceWithTokens, type TokenStates, unpackTokens } from './token-states.js';
export { cachedEmbedMany, readVectorFile, textsFingerprint, type VectorFile, writeVectorFile } from './vector-file.js';
export { loadTokenizer, type WordPiece } from './tokenizer.js';
