export type { Attempt } from './attempt.js';
export { type BreakerGate, type CallObserver, type ProviderLookup, callChat, openStream } from './call.js';
export { baselinePrices, computeCost, type Cost } from './cost.js';
export { estimatePromptTokens, estimateUsage } from './estimate-usage.js';
export { Gateway, type ChatJsonResponse, type ChatResponse, type ChatStreamResponse, type GatewayDeps, type RequestContext, replicateChoices } from './gateway.js';
export { resolveIntelligenceMode } from './intelligence-mode.js';
export { LearnQueue, type DecisionRecord, type LearnQueueSettings, type LearnStats, type LearnWriter, type UsageEvent } from './learn-queue.js';
export { buildSvcMetadata, routingHeaders } from './metadata.js';
export { type RoutingDecision, isAlias, largerContextModels, requiredCapabilities, route } from './route.js';
