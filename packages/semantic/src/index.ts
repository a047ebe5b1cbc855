export type { Embedder } from './embedder/interface.js';
export { createHashedEmbedder, type HashedEmbedderOptions } from './embedder/hashed-embedder.js';
export { createProviderEmbedder, type ProviderEmbedderSettings } from './embedder/provider-embedder.js';
export type { VectorMatch, VectorPayload, VectorPoint, VectorSearch, VectorStore } from './store/interface.js';
export { createMemoryVectorStore, type MemoryVectorStoreSettings } from './store/memory.js';
export { simdMemoryBytes } from './store/simd-rows.js';
export { createQdrantVectorStore, type QdrantVectorStoreSettings } from './store/qdrant.js';
export { type EligibilityOptions, type SemanticKey, semanticEligible, semanticIneligibility, semanticKeyOf } from './eligibility.js';
export { type KeyTerms, keyTerms, mayShareAnswer, sameKeyTerms } from './entity-guard.js';
export {
  createSemanticCache,
  type SemanticCache,
  type SemanticCacheSettings,
  type SemanticLookup,
  SemanticMissKey,
  type SemanticOperation,
} from './semantic-cache.js';
export { calibratedThreshold, calibratedThresholds, calibrations, type SimilarityCalibration, similarityCalibration, similarityThreshold } from './thresholds.js';
export { trainedVerifier } from './verifier/trained.js';
export { createVerifier, type TrainedVerifier, type Verifier } from './verifier/verifier.js';
export type { PairReader } from './pair/pair-reader.js';
export { type PairHeadWeights, pairHeadSchema, parsePairHead, scorePair, wordPieceOverlap } from './pair/grid-head.js';
export { decodeTokenFeatures, encodeTokenFeatures, firstColumns, packStoredFeatures, type TokenFeatures, unpackStoredFeatures } from './pair/token-features.js';
export { ROLE_FEATURE_NAMES, type RoleLexicon, roleFeatures } from './pair/role-features.js';
export { contextRoleModel, shippedPairReader, shippedRoleModel } from './pair/role-model-data.js';
export { atThreshold, isRoleReader, parseRoleModel, ROLE_MODEL_INPUTS, type RoleModel, type RoleModelFile, roleInputs, roleModelSchema, roleProbability, roleReader } from './pair/role-reader.js';
export { CONTEXT_SEED, fixedProjection, projectRows, TABLE_SEED } from './pair/fixed-projection.js';
export { REPLACED_FEATURE_NAMES, replacedFeatures, type WordTable } from './pair/replaced-features.js';
export { CONTEXT_FEATURE_NAMES, type ContextRows, contextFeatures, contextRows } from './pair/context-features.js';
export { READER_INPUTS, type ReplacedContext, readerInputs } from './pair/reader-inputs.js';
