export { type AccessRecord, hashEndUser } from './access-record.js';
export type { Attempt } from './attempt.js';
export { type BreakerGate, type CallObserver, type ProviderLookup, callChat, openStream } from './call.js';
export { countPromptTokens, estimatePromptTokens, estimateUsage } from './estimate-usage.js';
export { Gateway, type ChatJsonResponse, type ChatResponse, type ChatStreamResponse, type GatewayDeps, type GatewayTimeouts, type Exchange, replicateChoices } from './gateway.js';
export { type Deadline, createDeadline } from './deadline.js';
export { resolveIntelligenceMode } from './intelligence-mode.js';
export { LearnQueue, type DecisionRecord, type LearnBacklog, type LearnQueueSettings, type LearnStats, type LearnWriter, type UsageEvent } from './learn-queue.js';
export { buildSvcMetadata, routingHeaders } from './metadata.js';
export { type CacheHit, type CacheMiss, type CachePartition, type ExactCachePort, type SemanticCachePort, type SemanticLookup, cacheEnabled, lookupCache, storeAnswer } from './cache-stage.js';
export { StreamCollector } from './stream-collect.js';
export { replayStream } from './stream-replay.js';
export { largerContextModels, requiredCapabilities } from './route.js';
export { ChainLimiter, type ChainDefaults, chainStepLimitExceeded, chainTimedOut, defaultChainLimits } from './chain-limits.js';
export { type RoutingDecision, decisionDetails, routingConstraints, storedCandidates } from './decision-log.js';
export { type ReliabilitySettings, reliabilitySettings } from './reliability.js';
export { RouterFeedback, type RouterFeedbackSettings, kvWeightStore } from './router-feedback.js';
export { type KvStickySettings, type StickyStore, createKvStickyStore } from './sticky-routes.js';
export { type KvJournalSettings, KvLearnJournal, type LearnSink } from './learn-journal.js';
export { type EmbedDeps, type EmbedRequest, type EmbedResponse, embed } from './embed.js';
export { type ModerateRequest, type ModerateResponse, moderate } from './moderate.js';
export { type SpeakRequest, type SpeakResponse, speak } from './speech.js';
export { type TranscribeRequest, type TranscribeResponse, transcribe } from './transcribe.js';
export { type DeliveredImageRef, type GenerateImagesRequest, type GenerateImagesResponse, type ImageStageDeps, generateImages } from './images.js';
export { IMAGE_URL_TTL_MS, ImageStore, type ImageStoreSettings, type StoredImage } from './image-store.js';
export type { UnitStageDeps } from './unit-stage.js';
export {
  ALL_FLAGS_ON,
  DEGRADATION_GAUGE,
  DEGRADATION_LEVELS,
  DEGRADATION_SHEDS,
  FLAG_DESCRIPTIONS,
  FLAG_KEYS,
  NORMAL,
  type DegradationLevel,
  type FlagKey,
  type OptionalStage,
  type Switches,
  buildSwitches,
} from './switches.js';
export { type DegradationState, type FlagState, SharedSwitches, type SharedSwitchesSettings } from './shared-switches.js';
export { MEMORY_TOKEN_BUDGET, type MemoryPort, type RequestMemory, type Restore, injectMemory, lastUserText, recallForRequest, redactRequest, rememberRequest, requestMemory, restoreResult } from './memory-stage.js';
export { type RealtimeBill, type RealtimeDeps, type RealtimeEndReason, type RealtimeOpenRequest, RealtimeSession, openRealtimeSession } from './realtime-session.js';
export * from './voice/index.js';
