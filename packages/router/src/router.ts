import { type Catalog, LiveCatalog, type ModelInfo, createCatalog, nextRetirement } from '@svc/catalog';
import { type ChatRequest, type TaskComplexity, circuitBreakerOpen, invalidRequest, noProviderConfigured } from '@svc/core';
import { type Classification, classify } from './classify.js';
import { chooseCascade } from './cascade.js';
import { assembleDecision } from './decision.js';
import type { RequestEmbedder } from './embedder.js';
import { type RequestFeatures, extractFeatures, featureDimension, modeFeatureCount, toVector } from './features.js';
import { type LearnedApi, createLearnedApi } from './learned-api.js';
import { type ModelSpec, modelFromSpec } from './model-spec.js';
import { type PassThrough, type PassThroughOptions, createPassThrough } from './pass-through.js';
import type { Item, QualityEstimator } from './quality/estimator.js';
import type { QualityModel } from './quality/quality-model.js';
import { type QualityReading, createQualityReading, readItem } from './quality/reading.js';
import type { QualityTrust } from './quality/trust.js';
import { type TierGuard, type TierGuardSettings, createTierGuard } from './tier-guard.js';
import { type RoutingPolicy, createLinUcbPolicy } from './policy.js';
import { type DecisionBase, type PinRequest, createPinner, selectionKnobs } from './pinned.js';
import { type Pool, type Pools, aliasPool, buildPools, requiredCapabilities } from './pools.js';
import { type Preferences, resolvePreferences } from './preferences.js';
import { type ChoiceLearner, type FeedbackScore, type JudgedPair, createChoiceLearner } from './choice/learner.js';
import { type LearnedChoice, applyLearnedChoice, toleranceOfDial } from './choice/route-choice.js';
import { type JudgedGateSettings, defaultJudgedGate } from './choice/route-gate.js';
import { createPersistence } from './router-persistence.js';
import { type Scored, type ScoreInput, byScore, expectedCompletionTokens, scoreCandidates } from './score.js';
import type { LatencyStats, RouterState } from './state.js';
import { type RouteContext, type RouteDecision, type RouteOutcome, type TaskFamily, complexities } from './types.js';
import { applyWorkflowWeights, classifyWorkflow } from './workflow.js';

export interface RouterOptions {
  /**
   * The models to route over. A `LiveCatalog` may swap its snapshot at any time: the router
   * rebuilds its pools at the next request that sees the new one.
   */
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
  /**
   * Task families where the quality model's per-prompt reading is used; elsewhere every prompt is
   * read as the typical one (the prior: prompts ranked alike). Default: with the shipped model,
   * the families where its held-out ranking was measurably above random (`shippedQualityTrust`);
   * with a model of your own, every family.
   */
  qualityTrust?: QualityTrust;
  /** Models outside the catalog, from a minimal spec (see `ModelSpec` for the defaults). */
  models?: readonly ModelSpec[];
  /**
   * Explicit `<provider>/<model>` names the catalog does not list, for these configured providers,
   * are forwarded as named (a `passthrough` entry from the provider's defaults). Absent: such
   * names answer 404 `model_not_found`.
   */
  passThrough?: PassThroughOptions;
  /**
   * Most the online learning may raise (`up`, default 0.05) or lower (`down`, default 0.3) a
   * model's quality (0..1 scale). Traffic rewards success, latency and cost but carries little
   * quality signal, so it may demote a failing model but barely promote a cheap one.
   */
  maxOnlineShift?: { up?: number; down?: number };
  /** The tier-mix guard of online learning; `false` disables it. */
  guard?: TierGuardSettings | false;
  /**
   * The per-task learner (judged pairs and feedback per organisation and task family, see
   * `createChoiceLearner`); default one with no exploration; `false`: none.
   */
  learner?: ChoiceLearner | false;
  /**
   * The regression gate a learned route change must pass before it is applied (judged pairs of
   * the new model against the old one, `judgeRouteChange`); default `defaultJudgedGate` (the
   * gateway passes its `SVC_GATE_*` settings); `false`: the learner's own bound alone decides.
   */
  gate?: JudgedGateSettings | false;
}

export interface Router extends LearnedApi {
  /** Picks the model and the ordered waterfall for one request. Synchronous; throws GatewayError on invalid routing fields. */
  route(request: ChatRequest, context?: RouteContext): RouteDecision;
  /** Complexity and task family of a request, with its features (for `/v1/classify_complexity`). */
  classify(request: ChatRequest): Classification & { features: RequestFeatures };
  /** The `<provider>/<model>` names forwarded as named so far on this instance (`passThrough`), for `GET /v1/models`. */
  passedThrough(): readonly ModelInfo[];
  /**
   * The model an explicit name would be served as: the catalog's, else a pass-through entry (for a
   * configured provider, or one of `own`, the organisation's own keys); undefined for neither.
   * Retirement and the organisation's policies are the caller's to check.
   */
  named(requested: string, own?: ReadonlySet<string>): ModelInfo | undefined;
  /** Learns from an outcome: policy update, latency and token statistics. O(d^2), no I/O. */
  record(outcome: RouteOutcome): void;
  /** Teaches the per-task learner one judged comparison (no-op without a learner). Throws on a malformed pair. */
  recordJudgedPair(pair: JudgedPair): void;
  /** Teaches the per-task learner one feedback score in [0, 1] (no-op without a learner). Throws on a malformed score. */
  recordFeedback(feedback: FeedbackScore): void;
  /** The per-task learner, saved and restored with the policy. */
  readonly learner: ChoiceLearner | undefined;
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

const shiftClass = (c: TaskComplexity, by: number): TaskComplexity =>
  complexities[Math.min(3, Math.max(0, complexities.indexOf(c) + by))]!;

/** What a router holds between calls: built once by `createRouter`, read by `route` and `record`. */
interface RouterCore {
  options: RouterOptions;
  /** The snapshot routed over (with `options.models`), swapped by `refreshView`. */
  catalog: LiveCatalog;
  passThrough: PassThrough | undefined;
  /** The `options.catalog.list()` the pools were built from. */
  viewOf: readonly ModelInfo[] | undefined;
  /** When the next retirement date passes (ms), or Infinity: the pools are rebuilt then. */
  viewUntil: number;
  state: RouterState;
  estimator: QualityEstimator | undefined;
  /** How requests are read through the estimator (where it is trusted, the prior elsewhere). */
  reading: QualityReading | undefined;
  guard: TierGuard | undefined;
  maxShift: { up: number; down: number };
  policy: RoutingPolicy;
  learner: ChoiceLearner | undefined;
  gate: JudgedGateSettings | undefined;
  maxWaterfall: number;
  maxCandidates: number;
  pools: Pools;
  tokensByFamily: Map<TaskFamily, number>;
  tierAdjust: Float64Array;
  modelAdjust: (id: string) => number;
  pinned: (pin: PinRequest) => RouteDecision;
  /** Outcomes the policy learned. */
  updates: number;
}

/** The request read once: features, classification, preferences and the decision's common fields. */
interface Described {
  features: RequestFeatures;
  classification: Classification;
  prefs: Preferences;
  complexity: TaskComplexity;
  base: DecisionBase;
}

function describe(request: ChatRequest, context: RouteContext): Described {
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
  const chainKey = request.svc?.chainId ?? request.svc?.conversationId;
  const base: DecisionBase = {
    lane: prefs.forceLane ?? (fastLane ? 'turbo' : 'smart'),
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
  return { features, classification, prefs, complexity, base };
}

/** The scoring input of an alias request. */
function scoreInputOf(core: RouterCore, request: ChatRequest, context: RouteContext, d: Described, pool: Pool, stickyModel: string | undefined): { input: ScoreInput; item: Item | undefined } {
  const { features, classification, complexity, prefs } = d;
  const latency = core.options.latency;
  const scoreContext: RouteContext = context.latencyMs || !latency ? context : { ...context, latencyMs: (id) => latency.get(id) };
  const item = readItem(core.reading, features, context.embedding, classification.taskFamily);
  const input: ScoreInput = {
    pool: prefs.forceTier ? core.pools[prefs.forceTier] : core.pools[pool],
    features,
    complexity,
    prefs,
    needed: requiredCapabilities(request, features),
    context: scoreContext,
    tierAdjust: core.tierAdjust,
    modelAdjust: core.modelAdjust,
    stickyModel,
    completionTokens: features.maxTokens ?? core.tokensByFamily.get(classification.taskFamily) ?? expectedCompletionTokens[complexity],
    dropped: new Map<string, number>(),
    maxShift: core.maxShift,
    learned: core.estimator && item && context.embedding ? { estimator: core.estimator, item } : undefined,
    only: context.candidates ? new Set(context.candidates) : undefined,
    fresh: core.guard !== undefined,
  };
  return { input, item };
}

/** An explicit model (or `force_model` on an explicit model): honoured exactly, knobs that choose among candidates reported as not applied. */
function routePinned(core: RouterCore, request: ChatRequest, context: RouteContext, base: DecisionBase, lane: DecisionBase['lane']): RouteDecision {
  const forced = request.routingOverride?.forceModel;
  const ignored = request.routingHints || request.routingOverride?.forceTier !== undefined ? selectionKnobs(request) : [];
  const notApplied = ignored.length === 0 ? base.notApplied : [...base.notApplied, ...ignored];
  const param = forced ? 'routing_override.force_model' : 'model';
  return core.pinned({ requested: forced ?? request.model, param, base, notApplied, lane, source: forced ? 'Override' : 'Pinned', context });
}

/**
 * Rebuilds what the router derives from its catalog (pools, pinned decisions) when the catalog
 * swapped its snapshot or a retirement date passed; otherwise one identity check.
 */
function refreshView(core: RouterCore): void {
  const source = core.options.catalog instanceof LiveCatalog ? core.options.catalog.current : core.options.catalog;
  const models = source.list();
  if (models === core.viewOf && (core.viewUntil === Number.POSITIVE_INFINITY || Date.now() < core.viewUntil)) return;
  const now = Date.now();
  const specs = core.options.models;
  const catalog = specs?.length ? createCatalog([...models, ...specs.map(modelFromSpec)]) : source;
  core.catalog.swap(catalog);
  core.pools = buildPools(catalog, now);
  core.pinned = createPinner(catalog, core.passThrough?.resolve);
  core.viewOf = models;
  core.viewUntil = nextRetirement(catalog.list(), now);
}

function route(core: RouterCore, request: ChatRequest, context: RouteContext = {}): RouteDecision {
  refreshView(core);
  if (core.pools.all.length === 0) throw noProviderConfigured('No chat model is available: configure a provider key or enable the mock provider.');
  const described = describe(request, context);
  const { classification, prefs, complexity, base } = described;
  const pool = aliasPool(request.model);
  if (pool === undefined) return routePinned(core, request, context, base, prefs.forceLane ?? 'turbo');
  core.policy.adjust(classification.taskFamily, base.vector, core.tierAdjust);
  const stickyModel = base.stickyKey === undefined ? undefined : (context.stickyModel ?? core.state.sticky?.get(base.stickyKey));
  const { input, item } = scoreInputOf(core, request, context, described, pool, stickyModel);
  const scored = scoreCandidates(input);
  if (scored.length === 0) throw noCandidate(request.model, input.dropped);
  scored.sort(byScore);
  const { estimator } = core;
  const cascading = estimator !== undefined && (context.strongShare !== undefined || context.threshold !== undefined);
  const cascade = cascading ? chooseCascade(scored, { estimator, item: item!, context }) : undefined;
  if (!cascade && core.guard) guarded(core.guard, scored, complexity);
  const learned = cascade ? undefined : learnedFirst(core, request, context, scored, classification.taskFamily);
  const stickyIndex = stickyModel ? scored.findIndex((s) => s.sticky) : -1;
  if (stickyIndex > 0) scored.unshift(...scored.splice(stickyIndex, 1));
  const first = scored[0]!.model;
  if (base.stickyKey !== undefined && context.stickyModel === undefined && core.state.sticky && first.id !== stickyModel) core.state.sticky.set(base.stickyKey, first.id);
  const keep = context.maxCandidates ?? core.maxCandidates;
  const decision = assembleDecision({ base, scored, prefs, sticky: stickyIndex >= 0, keep, maxWaterfall: core.maxWaterfall, reading: core.reading, item, cascade, learned });
  const forced = request.routingOverride?.forceModel;
  if (forced === undefined) return decision;
  // force_model pins after routing: the classification stays, the model and its family replace the plan.
  return core.pinned({ requested: forced, param: 'routing_override.force_model', base, lane: decision.lane, source: 'Override', context });
}

/**
 * The learned order when the tier guard admits its first choice's tier; else the learned order
 * with the best model of the tier chosen without online learning moved first (learning still
 * picks inside that tier).
 */
function guarded(guard: TierGuard, scored: Scored[], complexity: TaskComplexity): Scored[] {
  let best = scored[0]!;
  for (const s of scored) if (s.fresh > best.fresh || (s.fresh === best.fresh && s.costUsd < best.costUsd)) best = s;
  if (guard.admit(complexity, best.model.tier, scored[0]!.model.tier)) return scored;
  const at = scored.findIndex((s) => s.model.tier === best.model.tier);
  if (at > 0) scored.unshift(...scored.splice(at, 1));
  return scored;
}

/** The per-task learner's choice moved first when the context names the organisation (after the tier guard: the guard bounds the online policy, the learner needs judged evidence). */
function learnedFirst(core: RouterCore, request: ChatRequest, context: RouteContext, scored: Scored[], taskKind: TaskFamily): LearnedChoice | undefined {
  // Nothing recorded for this organisation and task kind (most requests): no allocation, no choice.
  if (!core.learner || context.orgId === undefined || !core.learner.knows(context.orgId, taskKind)) return undefined;
  const tolerance = context.tolerance ?? toleranceOfDial(request.routingHints?.preferenceDial);
  return applyLearnedChoice(core.learner, scored, { orgId: context.orgId, taskKind, tolerance, gate: core.gate });
}

function record(core: RouterCore, outcome: RouteOutcome): void {
  const { decision } = outcome;
  const modelId = outcome.modelId ?? decision.model.id;
  const model = core.catalog.get(modelId);
  if (!model) return;
  if (outcome.latencyMs !== undefined) core.options.latency?.observe(modelId, outcome.latencyMs);
  let tokens = outcome.completionTokens;
  if (tokens === undefined && outcome.costUsd !== undefined && model.outputPricePerMTok > 0) {
    tokens = Math.max(0, (outcome.costUsd * 1e6 - decision.promptTokens * model.inputPricePerMTok) / model.outputPricePerMTok);
  }
  if (tokens !== undefined && Number.isFinite(tokens)) {
    const current = core.tokensByFamily.get(decision.taskFamily);
    core.tokensByFamily.set(decision.taskFamily, current === undefined ? tokens : current + 0.1 * (tokens - current));
  }
  const reward = outcome.success ? (outcome.quality ?? 1) : 0;
  core.policy.update({ taskFamily: decision.taskFamily, vector: decision.vector, tier: model.tier, modelId, prior: model.qualityPrior, reward });
  core.updates++;
}

/** Creates a router over a catalog (immutable, or live: see `RouterOptions.catalog`). No I/O, no timers: state comes in through `state`. */
export function createRouter(options: RouterOptions): Router {
  const policy = options.policy ?? createLinUcbPolicy();
  const passThrough = options.passThrough ? createPassThrough(options.passThrough) : undefined;
  const empty = createCatalog([]);
  const reading = createQualityReading(options.quality, options.qualityTrust);
  const core: RouterCore = {
    options,
    catalog: new LiveCatalog(empty),
    passThrough,
    viewOf: undefined,
    viewUntil: 0,
    state: options.state ?? {},
    estimator: reading?.estimator,
    reading,
    guard: options.guard === false ? undefined : createTierGuard(options.guard),
    maxShift: { up: options.maxOnlineShift?.up ?? 0.05, down: options.maxOnlineShift?.down ?? 0.3 },
    policy,
    learner: options.learner === false ? undefined : (options.learner ?? createChoiceLearner()),
    gate: options.gate === false ? undefined : (options.gate ?? defaultJudgedGate),
    maxWaterfall: options.maxWaterfall ?? 8,
    maxCandidates: options.maxCandidates ?? 10,
    pools: buildPools(empty),
    tokensByFamily: new Map<TaskFamily, number>(),
    tierAdjust: new Float64Array(3),
    modelAdjust: (id: string) => policy.modelAdjustment(id),
    pinned: createPinner(empty),
    updates: 0,
  };
  refreshView(core);
  const routeRequest = (request: ChatRequest, context?: RouteContext) => route(core, request, context);
  return {
    route: routeRequest,
    record: (outcome) => record(core, outcome),
    passedThrough: () => passThrough?.seen() ?? [],
    named: (requested, own) => {
      refreshView(core);
      return core.catalog.resolve(requested) ?? passThrough?.resolve(requested, own);
    },
    policy,
    learner: core.learner,
    recordJudgedPair: (pair) => core.learner?.recordJudgedPair(pair),
    recordFeedback: (feedback) => core.learner?.recordFeedback(feedback),
    ...createLearnedApi({
      catalog: core.catalog,
      estimator: core.estimator,
      item: (features, embedding) => readItem(reading, features, embedding, classify(features).taskFamily),
      embedder: options.embedder,
      route: routeRequest,
    }),
    classify(request) {
      const features = extractFeatures(request);
      return { ...classify(features), features };
    },
    ...createPersistence({ policy, learner: core.learner, state: core.state, tokensByFamily: core.tokensByFamily, updates: () => core.updates }),
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
