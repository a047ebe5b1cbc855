export { type AccessRecord, hashEndUser } from './learn/access-record.js';
export type { Attempt } from './call/attempt.js';
export { type BreakerGate, type CallObserver, type ProviderLookup, callChat, openStream } from './call/call.js';
export { countPromptTokens, estimatePromptTokens, estimateUsage } from './estimate-usage.js';
export { Gateway, type ChatJsonResponse, type ChatResponse, type ChatStreamResponse, type GatewayDeps, type GatewayTimeouts, type Exchange, replicateChoices } from './gateway.js';
export { type Deadline, createDeadline } from './call/deadline.js';
export { resolveIntelligenceMode } from './intelligence-mode.js';
export { LearnQueue, type DecisionRecord, type LearnBacklog, type LearnQueueSettings, type LearnStats, type LearnWriter, type UsageEvent } from './learn/learn-queue.js';
export { buildSvcMetadata, routingHeaders } from './chat/metadata.js';
export { type CacheDirective, type CacheHit, type CacheMiss, type CachePartition, type ExactCachePort, type SemanticCachePort, type SemanticLookup, cacheDirectiveOf, cacheEnabled, lookupCache, storeAnswer } from './chat/cache-stage.js';
export { StreamCollector } from './stream/stream-collect.js';
export { replayStream } from './stream/stream-replay.js';
export { addUsage } from './chat/verification.js';
export { largerContextModels, requiredCapabilities } from './chat/route.js';
export type { ConfiguredFallbacks } from './chat/fallback-models.js';
export { ChainLimiter, type ChainDefaults, chainStepLimitExceeded, chainTimedOut, defaultChainLimits } from './chat/chain-limits.js';
export { type RoutingDecision, decisionDetails, routingConstraints, storedCandidates } from './learn/decision-log.js';
export { type ReliabilitySettings, reliabilitySettings } from './call/reliability.js';
export { RouterFeedback, type RouterFeedbackSettings, SHARED_WEIGHTS_KEY, kvWeightStore } from './learn/router-feedback.js';
export { type KvStickySettings, type StickyStore, createKvStickyStore } from './chat/sticky-routes.js';
export { type KvJournalSettings, KvLearnJournal, type LearnSink, type OwnedOrgs, SHARED_JOURNAL_PREFIX, earlierDrainLock } from './learn/learn-journal.js';
export { type UncalledRequest, uncalledUsage } from './learn/part-usage.js';
export { type FileJournalSettings, FileLearnJournal } from './learn/file-journal.js';
export { type EmbedDeps, type EmbedRequest, type EmbedResponse, embed } from './units/embed.js';
export { type ModerateRequest, type ModerateResponse, moderate } from './units/moderate.js';
export { type SpeakRequest, type SpeakResponse, speak } from './units/speech.js';
export { type TranscribeRequest, type TranscribeResponse, transcribe } from './units/transcribe.js';
export { type DeliveredImageRef, type GenerateImagesRequest, type GenerateImagesResponse, type ImageStageDeps, generateImages } from './units/images.js';
export { IMAGE_URL_TTL_MS, ImageStore, type ImageStoreSettings, type StoredImage } from './units/image-store.js';
export { admitToolCall } from './units/admit-tool-call.js';
export { type OrgProviders, type UnitStageDeps, orgProviders } from './units/unit-stage.js';
export { BatchEstimate, HOLD_STEPS, endBatchHold, shrinkBatchHold, takeBatchHold } from './units/batch-hold.js';
export { type NativeLinePlan, type StoringLimiter, nativeLineCost, planNativeLine, recordNativeLine, reserveNativePart, settleNativePart } from './units/native-batch.js';
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
} from './switches/switches.js';
export { type DegradationState, type FlagState, SHARED_SWITCHES_PREFIX, SharedSwitches, type SharedSwitchesSettings } from './switches/shared-switches.js';
export { MEMORY_TOKEN_BUDGET, type MemoryPort, type RequestMemory, type Restore, injectMemory, lastUserText, recallForRequest, redactRequest, rememberRequest, requestMemory, restoreResult } from './chat/memory-stage.js';
export { type RealtimeBill, type RealtimeDeps, type RealtimeEndReason, type RealtimeOpenRequest, RealtimeSession, openRealtimeSession } from './voice/realtime-session.js';
export * from './voice/index.js';
export { type ShadowModelDeps, createShadowModels } from './shadow/shadow-models.js';
export { learnerFocus, learnerOrder } from './shadow/shadow-focus.js';
