export { approximateTokens, assembleContext, type ContextMemory } from './assemble-context.js';
export { type EntityType, extractEntities, type MemoryEntity } from './entities.js';
export {
  createMemoryStore,
  type MemoryRecordStore,
  type MemoryStore,
  type MemoryStoreSettings,
  type RecalledMemory,
  type RecallOptions,
  type StoredMemory,
} from './memory-store.js';
export { createPiiRedactor, ibanValid, luhnValid, type PiiKind, type PiiRedactor, type Redaction, redactPii } from './redact-pii.js';
