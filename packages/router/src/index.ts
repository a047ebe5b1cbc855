export { type Classification, classify } from './classify.js';
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
