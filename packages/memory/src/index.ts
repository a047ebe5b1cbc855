export { approximateTokens, assembleContext, type ContextMemory } from './assemble-context.js';
export { type EntityType, extractEntities, type MemoryEntity } from './entities.js';
export { type ExtractedFact, type ExtractFactsOptions, extractFacts, type FactChange, isSelfStatement } from './extract-facts.js';
export { holderOf } from './corrections.js';
export { factSlot, slotsAskedFor, statementCore } from './fact-slots.js';
export { endUserSubject, keySubject, type MemoryScope, memoryScopeOf, type RecallScope } from './memory-scope.js';
export {
  createMemoryStore,
  type MemoryRecordStore,
  type MemoryStore,
  type MemoryStoreSettings,
  type RecalledMemory,
  type RecallOptions,
  type RememberOptions,
  type StoredMemory,
  type StoredMemoryRow,
} from './memory-store.js';
export { notAState, subjectFrame } from './subject-links.js';
export { valuePhrase } from './value-types.js';
export { pairValues } from './typed-links.js';
export { sameKindMatcher, type ValueMatcher } from './kind-links.js';
export { createValueKinds, patternKind, VALUE_KINDS, type ValueKinds, type ValueKindThresholds } from './value-kinds.js';
export { RERANK_DEPTH, RERANK_FEATURES } from './recall-features.js';
export { asksForState, type NearestRule, type NearestRules, type OwnedPhraseRule } from './recall-nearest.js';
export { ownedPhrases } from './recall-owned.js';
export { type CueWeights, cueBonus, cueHits, type RecallCues, recallCues } from './recall-cues.js';
export { RECALL_CUE_WEIGHTS, type RecallFloors, recallFloors, refersToUser } from './recall-threshold.js';
export { createPiiRedactor, ibanValid, luhnValid, type PiiKind, type PiiRedactor, type Redaction, redactPii } from './redact-pii.js';
export { type AttributeClassifier, type AttributeThresholds, attributeThresholds, createAttributeClassifier } from './attribute-classifier.js';
export { ATTRIBUTE_PROTOTYPES, type AttributePrototype } from './attribute-prototypes.js';
