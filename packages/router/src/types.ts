import type { ModelInfo } from '@svc/catalog';
import type { Lane, TaskComplexity, Tier } from '@svc/core';

/** What a request is mostly about; drives the quality prediction and the learned policy. */
export type TaskFamily = 'code' | 'math' | 'analysis' | 'writing' | 'extraction' | 'translation' | 'chat';

/** Every task family, in a stable order (index = policy slot). */
export const taskFamilies: readonly TaskFamily[] = ['code', 'math', 'analysis', 'writing', 'extraction', 'translation', 'chat'];

/** Complexity classes, cheapest first (spec §Tiers and lanes). */
export const complexities: readonly TaskComplexity[] = ['trivial', 'standard', 'complex', 'expert'];

/** Tiers, most premium first. */
export const tiers: readonly Tier[] = ['T1', 'T2', 'T3'];

/** Where the chosen model came from. */
export type DecisionSource = 'Pinned' | 'Override' | 'Sticky' | 'Router';

/** One scored candidate, for the decision log and `/v1/admin/routing/decisions`. */
export interface ScoredCandidate {
  id: string;
  /** Higher is better; only comparable inside one decision. */
  score: number;
  /** Short tags explaining the score (`quality=0.91`, `cost=0.2`, `sticky`, `latency>budget`). */
  reasons: string[];
}

/** The outcome of routing one request: what to call, in order, and why. */
export interface RouteDecision {
  /** The first choice. */
  model: ModelInfo;
  /** Every model to try, in order, the first choice included. */
  waterfall: readonly ModelInfo[];
  /** Effective tier of the first choice. */
  tier: Tier;
  lane: Lane;
  /** `Pinned` (explicit model), `Override` (force_model), `Sticky` (chain continuation) or `Router`. */
  source: DecisionSource;
  taskFamily: TaskFamily;
  complexity: TaskComplexity;
  /** The scored candidates, best first (empty for pinned models). */
  candidates: readonly ScoredCandidate[];
  /** Request fields that were accepted but not applied (e.g. `routing_override.force_provider`). */
  notApplied: readonly string[];
  /** The request's feature vector, kept for `router.record` (the learned policy's context). */
  vector: Float64Array;
  /** Estimated prompt tokens. */
  promptTokens: number;
}

/** What happened after a decision, reported by the caller for learning. */
export interface RouteOutcome {
  decision: RouteDecision;
  /** The model that finally answered (default: the decision's first choice). */
  modelId?: string;
  success: boolean;
  /** End-to-end provider latency, milliseconds. */
  latencyMs?: number;
  /** Actual cost; used to infer completion tokens when those are not given. */
  costUsd?: number;
  completionTokens?: number;
  /** Quality signal in 0..1 (user feedback, verifier, judge); 1 for a plain success. */
  quality?: number;
}

/** Organisation policy the caller resolved from the tenant. */
export interface OrgPolicy {
  /** Only free or open-weight models may serve this organisation. */
  freeModelsOnly?: boolean;
}

/** Live state for one routing call; every function must be synchronous and cheap. */
export interface RouteContext {
  orgPolicy?: OrgPolicy;
  /** True when the model's circuit breaker is open (the model is skipped). */
  breakerOpen?(modelId: string): boolean;
  /** Live latency estimate (e.g. an EWMA) in milliseconds, or undefined when unknown. */
  latencyMs?(modelId: string): number | undefined;
}
