import { type Catalog, type ModelInfo, isRetired } from '@svc/catalog';
import { type ChatRequest, authorizationError, modelNotFound } from '@svc/core';
import { passThroughOff } from './pass-through.js';
import { unlessRetired } from './retired.js';
import type { RouteContext, RouteDecision } from './types.js';

/** What a decision holds before the model is chosen. */
export type DecisionBase = Omit<RouteDecision, 'model' | 'waterfall' | 'tier' | 'source' | 'candidates'>;

/** The candidate-selection knobs a request set, as spec field paths (reported as not applied to an explicit model). */
export function selectionKnobs(request: ChatRequest): string[] {
  const hints = request.routingHints ?? {};
  const knobs: string[] = [];
  if (hints.mode !== undefined) knobs.push('routing_hints.mode');
  if (hints.preferenceDial !== undefined) knobs.push('routing_hints.preference_dial');
  if (hints.preferLatency !== undefined) knobs.push('routing_hints.prefer_latency');
  if (hints.preferQuality !== undefined) knobs.push('routing_hints.prefer_quality');
  if (hints.maxLatencyMs !== undefined) knobs.push('routing_hints.max_latency_ms');
  if (hints.maxTier !== undefined) knobs.push('routing_hints.max_tier');
  if (hints.taskComplexity !== undefined) knobs.push('routing_hints.task_complexity');
  if (hints.allowFreeFallback !== undefined) knobs.push('routing_hints.allow_free_fallback');
  if (request.routingOverride?.forceTier !== undefined) knobs.push('routing_override.force_tier');
  return knobs;
}

/** What the `free_models_only` policy admits: free to call or open-weight. */
export const isFree = (model: ModelInfo): boolean => model.free || model.openWeight;

/** One explicit model to honour: the name asked for, the field it came from, and how the decision reports it. */
export interface PinRequest {
  requested: string;
  param: string;
  /** The request's decision base; `lane` and `notApplied` below take the place of its own (no copy of it is made for them). */
  base: DecisionBase;
  lane: DecisionBase['lane'];
  notApplied?: DecisionBase['notApplied'];
  source: 'Pinned' | 'Override';
  context: RouteContext;
}

/**
 * Decisions for explicit models over an immutable catalog: the model, then its same-family chat
 * models (computed once per model) as the waterfall. A name the catalog does not list goes to
 * `passThrough` (when given): a configured provider's model forwarded as named, unless the
 * organisation turned pass-through off.
 */
export function createPinner(catalog: Catalog, passThrough?: (requested: string, own?: ReadonlySet<string>) => ModelInfo | undefined): (pin: PinRequest) => RouteDecision {
  // Each model's waterfall when no breaker is open: the model, then its same-family chat models. Shared, so frozen.
  const chainOf = new Map<string, readonly ModelInfo[]>();
  const unlisted = (requested: string, param: string, context: RouteContext): ModelInfo | undefined => {
    const model = passThrough?.(requested, context.ownProviders);
    if (model && context.orgPolicy?.passThrough === false) throw passThroughOff(requested, param);
    return model;
  };
  return (pin) => {
    const { requested, param, base, notApplied = base.notApplied, context } = pin;
    const model = catalog.resolve(requested) ?? unlisted(requested, param, context);
    if (model?.kind !== 'chat') {
      throw modelNotFound(`The model '${requested}' does not exist or is not available. GET /v1/models lists the available models.`, param);
    }
    unlessRetired(model, param);
    const freeOnly = context.orgPolicy?.freeModelsOnly === true;
    if (freeOnly && !isFree(model)) {
      throw authorizationError('forbidden', `Your organisation may use free or open-weight models only, and '${model.id}' is neither. Ask for one of those or for svc/auto.`);
    }
    let chain = chainOf.get(model.id);
    if (chain === undefined) {
      chain = Object.freeze([model, ...catalog.family(model.family).filter((m) => m.id !== model.id && m.kind === 'chat' && !isRetired(m))]);
      chainOf.set(model.id, chain);
    }
    if (freeOnly) chain = chain.filter((m, i) => i === 0 || isFree(m));
    const { breakerOpen } = context;
    // Same-family siblings with an open breaker go last (the first choice is honoured whatever its breaker says).
    const waterfall = breakerOpen && chain.length > 2 ? openBreakersLast(chain, breakerOpen) : chain;
    return pinnedDecision(pin, notApplied, model, waterfall);
  };
}

/**
 * `chain` with the siblings (all but the first) whose breaker is open moved last, each group in
 * its order (what a stable sort on "open" gives); `chain` itself when none is open.
 */
function openBreakersLast(chain: readonly ModelInfo[], breakerOpen: (id: string) => boolean): readonly ModelInfo[] {
  const open = chain.filter((model, i) => i > 0 && breakerOpen(model.id));
  if (open.length === 0) return chain;
  return [...chain.filter((model) => !open.includes(model)), ...open];
}

/**
 * `{ ...base, notApplied, lane, model, waterfall, tier, source, candidates: [] }` as one literal,
 * same keys in the same order: V8 spreads the base into a slow copy (~4 KB a request, against
 * ~0.8 KB for the whole pinned route this way). The base's keys are describe()'s (router.ts);
 * a test checks this lists all of them.
 */
function pinnedDecision(pin: PinRequest, notApplied: DecisionBase['notApplied'], model: ModelInfo, waterfall: readonly ModelInfo[]): RouteDecision {
  const { base } = pin;
  return {
    lane: pin.lane,
    taskFamily: base.taskFamily,
    complexity: base.complexity,
    notApplied,
    vector: base.vector,
    features: base.features,
    promptTokens: base.promptTokens,
    featureCount: base.featureCount,
    workflowType: base.workflowType,
    workflowStated: base.workflowStated,
    stickyKey: base.stickyKey,
    model,
    waterfall,
    tier: model.tier,
    source: pin.source,
    candidates: [],
  };
}
