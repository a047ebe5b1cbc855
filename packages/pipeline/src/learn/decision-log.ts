import type { ChatRequest } from '@svc/core';
import { packFeatures } from '@svc/db';
import { type RouteDecision, type ScoredCandidate, scalarFeatures } from '@svc/router';

/** The route stage's outcome: the router's decision (model, waterfall, tier, lane, source, classification). */
/** The router's decision, with the fallback models the request or the configuration added to its waterfall. */
export type RoutingDecision = RouteDecision & {
  /** Slugs of the fallback models whose waterfalls follow the decision's own (`withFallbacks`). */
  fallbacks?: readonly string[];
};

/**
 * Candidates for the log: the router's scored candidates as they are (no copy); a pinned decision
 * has none, so its waterfall is listed with a null score.
 */
export function storedCandidates(decision: RoutingDecision): ReadonlyArray<ScoredCandidate | { id: string; score: null }> {
  if (decision.candidates.length === 0) return decision.waterfall.map((m) => ({ id: m.id, score: null }));
  return decision.candidates;
}

/** The routing constraints a request set: only the keys present (what `/policy` checks compliance against). */
export function routingConstraints(request: ChatRequest): Record<string, unknown> {
  const hints = request.routingHints;
  const override = request.routingOverride;
  const constraints: Record<string, unknown> = {};
  if (hints) {
    if (hints.mode !== undefined) constraints.mode = hints.mode;
    if (hints.preferenceDial !== undefined) constraints.preferenceDial = hints.preferenceDial;
    if (hints.maxTier !== undefined) constraints.maxTier = hints.maxTier;
    if (hints.taskComplexity !== undefined) constraints.taskComplexity = hints.taskComplexity;
    if (hints.mode === 'free_models_only') constraints.freeModelsOnly = true;
  }
  if (override) {
    if (override.forceTier !== undefined) constraints.forceTier = override.forceTier;
    if (override.forceLane !== undefined) constraints.forceLane = override.forceLane;
    if (override.forceModel !== undefined) constraints.forceModel = override.forceModel;
    if (override.forceProvider !== undefined) constraints.forceProvider = override.forceProvider;
  }
  return constraints;
}

/** Facts of the decision with no column of their own, merged into the row's `details`. */
export function decisionDetails(request: ChatRequest, decision: RoutingDecision): Record<string, unknown> {
  const details: Record<string, unknown> = {
    complexity: decision.complexity,
    workflowType: decision.workflowType,
    workflowStated: decision.workflowStated,
    waterfall: decision.waterfall.map((m) => m.id),
    promptTokensEstimate: decision.promptTokens,
    featureCount: decision.featureCount,
    // Stored packed (one string, not 34 keys of jsonb); the store's reads give the object back.
    features: packFeatures(scalarFeatures(decision.features)),
  };
  const constraints = routingConstraints(request);
  for (const _ in constraints) {
    details.constraints = constraints;
    break;
  }
  if (decision.notApplied.length > 0) details.notApplied = decision.notApplied;
  if (decision.fallbacks) details.fallbacks = decision.fallbacks;
  const svc = request.svc;
  if (svc?.reliabilityLevel !== undefined) details.reliabilityLevel = svc.reliabilityLevel;
  if (svc?.planningMode !== undefined) details.planningMode = svc.planningMode;
  if (svc?.chainId !== undefined) details.chainId = svc.chainId;
  if (svc?.conversationId !== undefined) details.conversationId = svc.conversationId;
  if (decision.stickyKey !== undefined) details.stickyKey = decision.stickyKey;
  if (decision.learned !== undefined) details.learned = decision.learned;
  if (decision.qualityFallback) details.qualityFallback = true;
  // Tracing context (`metadata`, legacy headers included): kept with the decision, never sent upstream.
  if (request.metadata !== undefined) details.metadata = request.metadata;
  return details;
}
