import type { LearnedChoice } from './choice/learned-choice.js';
import type { ModelInfo } from '@svc/catalog';
import type { Lane, TaskComplexity, Tier, WorkflowType } from '@svc/core';
import type { MemorySignals, RequestFeatures } from './features.js';

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
  /** Predicted quality (catalog prior plus the learned adjustment), 0..1. */
  quality: number;
  /** Predicted probability that the model answers a request of this complexity well, 0..1. */
  pSuccess: number;
  /** Expected cost of this request on the model, USD. */
  costUsd: number;
  /** Latency estimate used (live EWMA, else the tier's typical figure), ms. */
  latencyMs: number;
  /** Over `routing_hints.max_latency_ms`. */
  overBudget: boolean;
  /** The model that served this chain last. */
  sticky: boolean;
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
  /** The features the vector was built from (the decision log keeps their scalars). */
  features: RequestFeatures;
  /** Estimated prompt tokens. */
  promptTokens: number;
  /** Features the decision was made on (`modeFeatureCount`): 8 without the text, 392 with it, 396 with memory too. */
  featureCount: number;
  /** `svc.workflow_type`, or the one classified from the request when absent. */
  workflowType: WorkflowType;
  /** Whether `workflowType` was stated by the caller or classified. */
  workflowStated: boolean;
  /** The learned difficulty of the request (logit scale; higher is harder), when a quality model is loaded. */
  difficulty?: number | undefined;
  /**
   * True when the quality model was not trusted for the request's task family (its held-out
   * ranking there was not above random): the request was read as a typical prompt (the prior).
   */
  qualityFallback?: true | undefined;
  /** Strong/weak routing (`strongShare` or `threshold` in the context): the pair, the win rate and the threshold applied. */
  cascade?: { strong: string; weak: string; winRate: number; threshold: number } | undefined;
  /** The sticky-route key (`chain_id`, else `conversation_id`) when chain routing is sticky; the caller stores the served model under it. */
  stickyKey: string | undefined;
  /** The per-task learner put another model first: a cheaper one, or a pricier one judged clearly better (`RouteContext.orgId` given, judged pairs or feedback behind it). */
  learned?: LearnedChoice | undefined;
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
  /** False: an explicit `<provider>/<model>` the catalog does not list is refused (404) instead of forwarded as named. Default true. */
  passThrough?: boolean;
}

/** Live state for one routing call; every function must be synchronous and cheap. */
export interface RouteContext {
  orgPolicy?: OrgPolicy;
  /**
   * Providers the caller's organisation holds its own key for (BYOK) that the gateway does not
   * configure itself: an explicit `<provider>/<model>` of one passes through too, served with the
   * organisation's key (a model the built-in catalog lists keeps its prices).
   */
  ownProviders?: ReadonlySet<string>;
  /** True when the model's circuit breaker is open (the model is skipped). */
  breakerOpen?(modelId: string): boolean;
  /** Live latency estimate (e.g. an EWMA) in milliseconds, or undefined when unknown. */
  latencyMs?(modelId: string): number | undefined;
  /**
   * Read the request's text for the features (default). False in proxy mode: only the structural
   * features (`structuralDimension`), no text scan.
   */
  textFeatures?: boolean;
  /**
   * The model that served this request's chain last, looked up by the caller under the
   * decision's sticky key (for shared stores that cannot answer synchronously). When absent,
   * `RouterState.sticky` is asked.
   */
  stickyModel?: string;
  /**
   * What the organisation's memory offered the request (intelligence mode `full`): the four memory
   * features. Absent: they are zero and not counted in `featureCount`.
   */
  memory?: MemorySignals;
  /**
   * The request's sentence embedding (from `router.embed(request)` or the shared encoder): the
   * learned quality model then gives each candidate's P(success). Absent: the complexity heuristic does.
   */
  embedding?: ArrayLike<number>;
  /** Scored candidates kept on this decision (default the router's `maxCandidates`). */
  maxCandidates?: number;
  /** Only these model ids are considered. */
  candidates?: readonly string[];
  /**
   * Strong/weak routing (RouteLLM-style): the strong model is chosen when its win rate over the
   * weak one reaches `threshold`; with `strongShare` (0..1) instead, the threshold is calibrated
   * so that this share of typical prompts goes to the strong model (`router.thresholdFor`, or
   * `router.calibrate` on your own prompts). Strong defaults to the eligible model of highest
   * quality prior, weak to the cheapest eligible one.
   */
  strongShare?: number;
  threshold?: number;
  strongModel?: string;
  weakModel?: string;
  /**
   * The caller's organisation: the per-task learner (judged pairs and feedback recorded for it)
   * may then put a cheaper model (or a pricier one judged clearly better) first for the request's
   * task family. Absent: it is not asked.
   */
  orgId?: string;
  /** How far below an even win rate a cheaper model may be (and the router's cheap choice against a pricier model it keeps its place against) (0..0.5); default from `routing_hints.preference_dial` (`toleranceOfDial`). */
  tolerance?: number;
}
