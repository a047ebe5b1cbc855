import type { Catalog, ModelInfo } from '@svc/catalog';
import { type ChatRequest, type TaskComplexity, authorizationError, circuitBreakerOpen, invalidRequest, noProviderConfigured } from '@svc/core';
import { type Classification, classify } from './classify.js';
import { createCatalog } from '@svc/catalog';
import { chooseCascade } from './cascade.js';
import type { RequestEmbedder } from './embedder.js';
import { type RequestFeatures, extractFeatures, featureDimension, modeFeatureCount, toVector } from './features.js';
import { type LearnedApi, createLearnedApi } from './learned-api.js';
import { type ModelSpec, modelFromSpec } from './model-spec.js';
import { type QualityEstimator, createQualityEstimator } from './quality/estimator.js';
import type { QualityModel } from './quality/quality-model.js';
import { shippedQualityModel } from './quality/shipped.js';
import { type TierGuard, type TierGuardSettings, createTierGuard } from './tier-guard.js';
import { type PolicySnapshot, type RoutingPolicy, createLinUcbPolicy } from './policy.js';
import { mergePolicySnapshots } from './policy-merge.js';
import { aliasPool, buildPools, requiredCapabilities } from './pools.js';
import { resolvePreferences } from './preferences.js';
import { type Scored, type ScoreInput, byScore, expectedCompletionTokens, explain, scoreCandidates } from './score.js';
import type { LatencyStats, RouterState } from './state.js';
import { type RouteContext, type RouteDecision, type RouteOutcome, type ScoredCandidate, type TaskFamily, complexities, taskFamilies } from './types.js';
import { applyWorkflowWeights, classifyWorkflow } from './workflow.js';

export interface RouterOptions {
  catalog: Catalog;
  state?: RouterState;
  /** The learned policy; default LinUCB with bounded exploration. */
  policy?: RoutingPolicy;
  /** Latency source used when the route context gives none; fed by `record`. */
  latency?: LatencyStats;
  /** Longest waterfall an alias produces. Default 8. */
  maxWaterfall?: number;
  /** Scored candidates kept on the decision. Default 10. */
  maxCandidates?: number;
  /**
   * Turns request texts into sentence vectors for the quality model: any `{ embed(texts) }`.
   * Default: the local all-MiniLM-L6-v2 of `@svc/encoder` when installed (loaded on first use by
   * `winRate`, `rank`, `embed` and `calibrate`); `false`: text signals only.
   */
  embedder?: RequestEmbedder | false;
  /** The learned quality model; default the one shipped in the package; `false`: priors and heuristics only. */
  quality?: QualityModel | false;
  /** Models outside the catalog, from a minimal spec (see `ModelSpec` for the defaults). */
  models?: readonly ModelSpec[];
  /**
   * Most the online learning may raise (`up`, default 0.05) or lower (`down`, default 0.3) a
   * model's quality (0..1 scale). Traffic rewards success, latency and cost but carries little
   * quality signal, so it may demote a failing model but barely promote a cheap one.
   */
  maxOnlineShift?: { up?: number; down?: number };
  /** The tier-mix guard of online learning; `false` disables it. */
  guard?: TierGuardSettings | false;
}

export interface Router extends LearnedApi {
  /** Picks the model and the ordered waterfall for one request. Synchronous; throws GatewayError on invalid routing fields. */
  route(request: ChatRequest, context?: RouteContext): RouteDecision;
  /** Complexity and task family of a request, with its features (for `/v1/classify_complexity`). */
  classify(request: ChatRequest): Classification & { features: RequestFeatures };
  /** Learns from an outcome: policy update, latency and token statistics. O(d^2), no I/O. */
  record(outcome: RouteOutcome): void;
  /**
   * Writes the learned state through `state.weights`; resolves without effect when none is set.
   * With a store that can `update`, what this instance learned since its last save or restore is
   * merged into what the other instances saved meanwhile (`mergePolicySnapshots`), and the merged
   * learning becomes this instance's too.
   */
  save(): Promise<void>;
  /**
   * Loads the learned state from `state.weights`, if any was saved, keeping what this instance
   * learned since its last save or restore on top of it: at start-up, and to take up the other
   * instances' learning between saves.
   */
  restore(): Promise<void>;
  readonly policy: RoutingPolicy;
}

interface SavedRouter {
  policy: PolicySnapshot;
  completionTokens: Record<string, number>;
}

/** `shared` plus what `mine` learned since `base`, or undefined when they cannot be merged (another build's or a malformed snapshot). */
function tryMerge(shared: PolicySnapshot | undefined, base: PolicySnapshot, mine: PolicySnapshot): PolicySnapshot | undefined {
  if (!shared) return undefined;
  try {
    return mergePolicySnapshots(shared, base, mine);
  } catch {
    return undefined;
  }
}

type DecisionBase = Omit<RouteDecision, 'model' | 'waterfall' | 'tier' | 'source' | 'candidates'>;

/** The candidate-selection knobs a request set, as spec field paths (reported as not applied to an explicit model). */
function selectionKnobs(request: ChatRequest): string[] {
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
const isFree = (model: ModelInfo): boolean => model.free || model.openWeight;

const shiftClass = (c: TaskComplexity, by: number): TaskComplexity =>
  complexities[Math.min(3, Math.max(0, complexities.indexOf(c) + by))]!;

/** Creates a router over an immutable catalog. No I/O, no timers: state comes in through `state`. */
export function createRouter(options: RouterOptions): Router {
  const { state = {} } = options;
  const catalog = options.models?.length ? createCatalog([...options.catalog.list(), ...options.models.map(modelFromSpec)]) : options.catalog;
  const estimator: QualityEstimator | undefined = options.quality === false ? undefined : createQualityEstimator(options.quality ?? shippedQualityModel());
  const guard: TierGuard | undefined = options.guard === false ? undefined : createTierGuard(options.guard);
  const maxShift = { up: options.maxOnlineShift?.up ?? 0.05, down: options.maxOnlineShift?.down ?? 0.3 };
  const policy = options.policy ?? createLinUcbPolicy();
  const maxWaterfall = options.maxWaterfall ?? 8;
  const maxCandidates = options.maxCandidates ?? 10;
  const pools = buildPools(catalog);
  const tokensByFamily = new Map<TaskFamily, number>();
  const tierAdjust = new Float64Array(3);
  const modelAdjust = (id: string) => policy.modelAdjustment(id);
  /** Same-family chat models of each pinned model, computed once (the catalog is immutable). */
  const siblingsOf = new Map<string, readonly ModelInfo[]>();

  function pinned(requested: string, param: string, base: DecisionBase, source: 'Pinned' | 'Override', context: RouteContext): RouteDecision {
    const model = catalog.resolve(requested);
    if (model?.kind !== 'chat') {
      throw invalidRequest(`The model '${requested}' does not exist or is not available. GET /v1/models lists the available models.`, param, 'model_not_found');
    }
    const freeOnly = context.orgPolicy?.freeModelsOnly === true;
    if (freeOnly && !isFree(model)) {
      throw authorizationError('forbidden', `Your organisation may use free or open-weight models only, and '${model.id}' is neither. Ask for one of those or for svc/auto.`);
    }
    let siblings = siblingsOf.get(model.id);
    if (siblings === undefined) {
      siblings = catalog.family(model.family).filter((m) => m.id !== model.id && m.kind === 'chat');
      siblingsOf.set(model.id, siblings);
    }
    if (freeOnly) siblings = siblings.filter(isFree);
    const { breakerOpen } = context;
    let waterfall: readonly ModelInfo[] = siblings.length === 0 ? [model] : [model, ...siblings];
    // Same-family siblings with an open breaker go last (the first choice is honoured whatever its breaker says).
    if (breakerOpen && siblings.length > 1) waterfall = [model, ...[...siblings].sort((a, b) => Number(breakerOpen(a.id)) - Number(breakerOpen(b.id)))];
    return { ...base, model, waterfall, tier: model.tier, source, candidates: [] };
  }

  function route(request: ChatRequest, context: RouteContext = {}): RouteDecision {
    if (pools.all.length === 0) throw noProviderConfigured('No chat model is available: configure a provider key or enable the mock provider.');
    const textFeatures = context.textFeatures !== false;
    const features = extractFeatures(request, textFeatures);
    const classification = classify(features);
    const prefs = resolvePreferences(request, context.orgPolicy?.freeModelsOnly === true);
    const complexity = prefs.statedComplexity ?? shiftClass(classification.complexity, prefs.effortShift);
    const stated = request.svc?.workflowType;
    const workflowType = stated ?? classifyWorkflow(request, features, classification.taskFamily, complexity);
    applyWorkflowWeights(prefs.weights, workflowType, request.svc?.planningMode);
    const vector = toVector(features, new Float64Array(featureDimension), context.memory);
    const fastLane = complexity === 'trivial' || workflowType === 'voice_simple' || (prefs.maxLatencyMs !== undefined && prefs.maxLatencyMs <= 300);
    const lane = prefs.forceLane ?? (fastLane ? 'turbo' : 'smart');
    const chainKey = request.svc?.chainId ?? request.svc?.conversationId;
    const base: DecisionBase = {
      lane,
      taskFamily: classification.taskFamily,
      complexity,
      notApplied: prefs.notApplied,
      vector,
      features,
      promptTokens: features.promptTokens,
      featureCount: modeFeatureCount[!textFeatures ? 'proxy' : context.memory ? 'full' : 'cache'],
      workflowType,
      workflowStated: stated !== undefined,
      stickyKey: prefs.sticky ? chainKey : undefined,
    };
    const pool = aliasPool(request.model);
    const forced = request.routingOverride?.forceModel;
    if (pool === undefined) {
      // An explicit model is honoured exactly: knobs that choose among candidates had nothing to choose.
      const ignored = request.routingHints || request.routingOverride?.forceTier !== undefined ? selectionKnobs(request) : [];
      const notApplied = ignored.length === 0 ? base.notApplied : [...base.notApplied, ...ignored];
      return pinned(forced ?? request.model, forced ? 'routing_override.force_model' : 'model', { ...base, notApplied, lane: prefs.forceLane ?? 'turbo' }, forced ? 'Override' : 'Pinned', context);
    }

    policy.adjust(classification.taskFamily, vector, tierAdjust);
    const stickyModel = base.stickyKey === undefined ? undefined : (context.stickyModel ?? state.sticky?.get(base.stickyKey));
    const latency = options.latency;
    const scoreContext: RouteContext =
      context.latencyMs || !latency ? context : { ...context, latencyMs: (id) => latency.get(id) };
    const item = estimator?.item(features, context.embedding);
    const input: ScoreInput = {
      pool: prefs.forceTier ? pools[prefs.forceTier] : pools[pool],
      features,
      complexity,
      prefs,
      needed: requiredCapabilities(request, features),
      context: scoreContext,
      tierAdjust,
      modelAdjust,
      stickyModel,
      completionTokens: features.maxTokens ?? tokensByFamily.get(classification.taskFamily) ?? expectedCompletionTokens[complexity],
      dropped: new Map<string, number>(),
      maxShift,
      learned: estimator && context.embedding ? { estimator, item: item! } : undefined,
      only: context.candidates ? new Set(context.candidates) : undefined,
      fresh: guard !== undefined,
    };
    const scored = scoreCandidates(input);
    if (scored.length === 0) throw noCandidate(request.model, input.dropped);
    scored.sort(byScore);
    const cascading = estimator !== undefined && (context.strongShare !== undefined || context.threshold !== undefined);
    const cascade = cascading ? chooseCascade(scored, { estimator, item: item!, context }) : undefined;
    if (!cascade && guard) guarded(scored, complexity);
    const stickyIndex = stickyModel ? scored.findIndex((s) => s.sticky) : -1;
    if (stickyIndex > 0) scored.unshift(...scored.splice(stickyIndex, 1));
    const waterfall: ModelInfo[] = [];
    for (let i = 0; i < scored.length && i < maxWaterfall; i++) waterfall.push(scored[i]!.model);
    if (prefs.allowFreeFallback && !prefs.freeOnly) {
      let added = 0;
      for (let i = maxWaterfall; i < scored.length && added < 2; i++) {
        if (scored[i]!.model.free) {
          waterfall.push(scored[i]!.model);
          added++;
        }
      }
    }
    const first = scored[0]!.model;
    if (base.stickyKey !== undefined && context.stickyModel === undefined && state.sticky && first.id !== stickyModel) state.sticky.set(base.stickyKey, first.id);
    const candidates: ScoredCandidate[] = [];
    const keep = context.maxCandidates ?? maxCandidates;
    for (let i = 0; i < scored.length && i < keep; i++) candidates.push(explain(scored[i]!));
    const decision: RouteDecision = { ...base, model: first, waterfall, tier: first.tier, source: stickyIndex >= 0 ? 'Sticky' : 'Router', candidates, difficulty: item?.d, cascade };
    if (forced === undefined) return decision;
    // force_model pins after routing: the classification stays, the model and its family replace the plan.
    return pinned(forced, 'routing_override.force_model', { ...base, lane: decision.lane }, 'Override', context);
  }

  /**
   * The learned order when the tier guard admits its first choice's tier; else the learned order
   * with the best model of the tier chosen without online learning moved first (learning still
   * picks inside that tier).
   */
  function guarded(scored: Scored[], complexity: TaskComplexity): Scored[] {
    let best = scored[0]!;
    for (const s of scored) if (s.fresh > best.fresh || (s.fresh === best.fresh && s.costUsd < best.costUsd)) best = s;
    if (guard!.admit(complexity, best.model.tier, scored[0]!.model.tier)) return scored;
    const at = scored.findIndex((s) => s.model.tier === best.model.tier);
    if (at > 0) scored.unshift(...scored.splice(at, 1));
    return scored;
  }

  /** Outcomes the policy learned (to tell whether it changed while a save or restore waited). */
  let updates = 0;

  function record(outcome: RouteOutcome): void {
    const { decision } = outcome;
    const modelId = outcome.modelId ?? decision.model.id;
    const model = catalog.get(modelId);
    if (!model) return;
    if (outcome.latencyMs !== undefined) options.latency?.observe(modelId, outcome.latencyMs);
    let tokens = outcome.completionTokens;
    if (tokens === undefined && outcome.costUsd !== undefined && model.outputPricePerMTok > 0) {
      tokens = Math.max(0, (outcome.costUsd * 1e6 - decision.promptTokens * model.inputPricePerMTok) / model.outputPricePerMTok);
    }
    if (tokens !== undefined && Number.isFinite(tokens)) {
      const current = tokensByFamily.get(decision.taskFamily);
      tokensByFamily.set(decision.taskFamily, current === undefined ? tokens : current + 0.1 * (tokens - current));
    }
    const reward = outcome.success ? (outcome.quality ?? 1) : 0;
    policy.update({ taskFamily: decision.taskFamily, vector: decision.vector, tier: model.tier, modelId, prior: model.qualityPrior, reward });
    updates++;
  }

  // The shared learning this instance last merged with (restore or save): what `save` adds to is
  // everything learned since. A fresh policy starts from the untrained state every instance shares.
  let synced: PolicySnapshot = policy.serialize();
  let updatesAtSync = 0;

  return {
    route,
    record,
    policy,
    ...createLearnedApi({ catalog, estimator, embedder: options.embedder, route }),
    classify(request) {
      const features = extractFeatures(request);
      return { ...classify(features), features };
    },
    async save() {
      const store = state.weights;
      if (!store) return;
      const completionTokens = Object.fromEntries(tokensByFamily);
      const mine = policy.serialize();
      const updatesAtStart = updates;
      if (!store.update) {
        await store.save({ policy: mine, completionTokens } satisfies SavedRouter);
        synced = mine;
        updatesAtSync = updatesAtStart;
        return;
      }
      const since = synced;
      // Nothing stored, or a snapshot of another build: this instance's learning is the state.
      const written = (await store.update((current) => ({
        policy: tryMerge((current as Partial<SavedRouter> | undefined)?.policy, since, mine) ?? mine,
        completionTokens,
      }))) as SavedRouter;
      // Outcomes learned while the store was busy are kept on top of the merged state.
      if (updates === updatesAtStart) policy.load(written.policy);
      else policy.load(mergePolicySnapshots(written.policy, mine, policy.serialize()));
      synced = written.policy;
      updatesAtSync = updatesAtStart;
    },
    async restore() {
      const saved = (await state.weights?.load()) as Partial<SavedRouter> | undefined | null;
      if (!saved || typeof saved !== 'object') return;
      // Token estimates first: a policy snapshot the current policy cannot take must not lose them.
      for (const [family, tokens] of Object.entries(saved.completionTokens ?? {})) {
        if (taskFamilies.includes(family as TaskFamily) && Number.isFinite(tokens)) tokensByFamily.set(family as TaskFamily, tokens);
      }
      if (saved.policy) {
        // What this instance learned since it last synchronised stays, on top of the shared state.
        // A snapshot of another build is not merged: load() below says why it cannot be taken.
        const next = updates === updatesAtSync ? saved.policy : (tryMerge(saved.policy, synced, policy.serialize()) ?? saved.policy);
        policy.load(next);
        synced = saved.policy;
        updatesAtSync = updates;
      }
    },
  };
}

function noCandidate(requested: string, dropped: Map<string, number>): Error {
  const why = [...dropped].map(([reason, n]) => `${n} ${reason}`).join(', ') || 'empty pool';
  if (dropped.size === 1 && dropped.has('breaker_open')) return circuitBreakerOpen(`Every model for '${requested}' has an open circuit breaker.`);
  if (dropped.has('context_window') && dropped.size === 1) {
    return invalidRequest(`No model for '${requested}' has a context window large enough for this request.`, 'messages', 'context_length_exceeded');
  }
  return invalidRequest(`No available model for '${requested}' satisfies this request's constraints (excluded: ${why}).`, 'model', 'no_eligible_model');
}
