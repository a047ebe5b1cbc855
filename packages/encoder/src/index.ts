export { type EmbedManyOptions, embedMany } from './embed-many.js';
export { referenceComponents, referenceSentence } from './reference.js';
export {
  createSentenceEncoder,
  type SentenceEncoder,
  type SentenceEncoderSettings,
  type SentenceEncoderStatus,
} from './sentence-encoder.js';
export { cachedEmbedMany, readVectorFile, textsFingerprint, type VectorFile, writeVectorFile } from './vector-file.js';
