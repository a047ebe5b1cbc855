export type { ChatMessage, ChatRequest } from '@svc/core';
export { type Classification, classify } from './classify.js';
export {
  type Choice,
  type ChoiceLearner,
  type ChoiceLearnerOptions,
  type ChoiceOption,
  type ChoiceRequest,
  type FeedbackScore,
  type JudgedPair,
  type Verdict,
  UP_ALPHA,
  createChoiceLearner,
} from './choice/learner.js';
export { type JudgingOrder, createJudgingOrder } from './choice/judging-order.js';
export { type LearnedChoice, toleranceOfDial } from './choice/route-choice.js';
export type { LearnedGateRuling } from './choice/learned-choice.js';
export { type ChoiceSnapshot, ChoiceSnapshotError, mergeChoiceSnapshots, parseChoiceSnapshot } from './choice/snapshot.js';
export type { WinEstimate } from './choice/win-estimate.js';
export {
  type Interval,
  type JudgedCounts,
  type JudgedGateSettings,
  type JudgedWinRate,
  type PairCounts,
  type RouteChange,
  defaultJudgedGate,
  judgeRouteChange,
  judgedWinRate,
  wilsonInterval,
} from './choice/route-gate.js';
export { type RequestEmbedder, defaultEmbedder } from './embedder.js';
export type { LearnedApi, RankedModel } from './learned-api.js';
export { type ModelSpec, modelFromSpec, tierPriors } from './model-spec.js';
export { type PassThrough, type PassThroughOptions, createPassThrough } from './pass-through.js';
export { type Item as QualityItem, type QualityEstimator, type WinRateForm, createQualityEstimator, thresholdForShare, winRateOf } from './quality/estimator.js';
export {
  type QualityModel,
  type QualityModelFile,
  QualityModelError,
  parseQualityModel,
  serializeQualityModel,
  textSignalCount,
  textSignals,
} from './quality/quality-model.js';
export { shippedQualityModel } from './quality/shipped.js';
export { type TrainingDomain, inTrainingDomain, nearestSimilarity } from './quality/domain.js';
export { shippedQualityTrust } from './quality/shipped-trust.js';
export { type QualityTrust, trustEverywhere } from './quality/trust.js';
export { type TierGuard, type TierGuardSettings, createTierGuard } from './tier-guard.js';
export { lastUserText } from './features.js';
export { type MemorySignals, type RequestFeatures, extractFeatures, featureDimension, memoryDimension, modeFeatureCount, structuralDimension, toVector } from './features.js';
export { type LinUcbOptions, type PolicyOutcome, type PolicySnapshot, PolicySnapshotError, type RoutingPolicy, createLinUcbPolicy } from './policy.js';
export { type Pool, aliasPool } from './pools.js';
export { type Preferences, type Weights, modePresets, parseTier, resolvePreferences } from './preferences.js';
export { type Router, type RouterOptions, createRouter } from './router.js';
export { scalarFeatures } from './scalar-features.js';
export { defaultLatencyMs, expectedCompletionTokens, requiredQuality } from './score.js';
export {
  type LatencyStats,
  type RouterState,
  type StickyRoutes,
  type WeightStore,
  createLatencyStats,
  createMemoryStickyRoutes,
} from './state.js';
export * from './types.js';
export { applyWorkflowWeights, classifyWorkflow, voiceRequested } from './workflow.js';
export { type ModalityWords, choosesModel, embeddingModel, imageModel, namedModel, unitModel } from './modality/named-model.js';
export { chooseSttModel, chooseTtsModel } from './modality/voice-model.js';
