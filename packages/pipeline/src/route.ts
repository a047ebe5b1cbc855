import type { Capability, Catalog, ModelInfo } from '@svc/catalog';
import { type ChatRequest, type Lane, type Tier, invalidRequest, noProviderConfigured } from '@svc/core';

/** The outcome of the route stage: what to call, in order. */
export interface RoutingDecision {
  /** The first choice. */
  model: ModelInfo;
  /** Every candidate in order, the first choice included: the call stage walks it. */
  waterfall: readonly ModelInfo[];
  /** The waterfall's model ids, for the decision log. */
  candidates: readonly string[];
  tier: Tier;
  lane: Lane;
  /** Machine-readable source: `Pinned` for explicit models, the policy's name otherwise. */
  source: string;
  taskFamily: string | null;
}

const aliasTiers: Record<string, Tier | 'all' | 'safety'> = {
  auto: 'all',
  'svc/auto': 'all',
  'svc/auto-quality': 'T1',
  'svc/auto-value': 'T2',
  'svc/auto-speed': 'T3',
  'svc/auto-safety': 'safety',
};

/** `auto` without hints prefers the value tier, then quality, then speed. */
const allTierOrder: readonly Tier[] = ['T2', 'T1', 'T3'];

export function isAlias(model: string): boolean {
  return model in aliasTiers;
}

/** Capabilities the request cannot be served without. */
export function requiredCapabilities(request: ChatRequest): Capability[] {
  const needed: Capability[] = [];
  if (request.tools && request.tools.length > 0 && request.toolChoice !== 'none') needed.push('tools');
  const format = request.responseFormat?.type;
  if (format === 'json_object' || format === 'json_schema') needed.push('json');
  let vision = false;
  let audio = false;
  for (const message of request.messages) {
    if (typeof message.content === 'string' || message.content === null) continue;
    for (const part of message.content) {
      if (part.type === 'image') vision = true;
      else if (part.type === 'audio') audio = true;
    }
  }
  if (vision) needed.push('vision');
  if (audio) needed.push('audio');
  return needed;
}

function serves(model: ModelInfo, needed: readonly Capability[]): boolean {
  for (const capability of needed) if (!model.capabilities.includes(capability)) return false;
  return true;
}

function byQualityThenPrice(a: ModelInfo, b: ModelInfo): number {
  return b.qualityPrior - a.qualityPrior || a.inputPricePerMTok + a.outputPricePerMTok - (b.inputPricePerMTok + b.outputPricePerMTok);
}

/** The catalog-dependent part of a decision: what `route` computes, before per-request overrides. */
interface Plan {
  model: ModelInfo;
  waterfall: readonly ModelInfo[];
  candidates: readonly string[];
  lane: Lane;
  source: string;
}

/**
 * Plans depend only on the (immutable) active catalog and a few request facts, so they are
 * computed once per key and reused: no catalog scans or sorts on the request path.
 */
const plans = new WeakMap<Catalog, Map<string, Plan>>();
const maxPlansPerCatalog = 10_000;

/**
 * The first routing policy (the router issue replaces it): explicit models are honoured
 * exactly, with same-family models on other configured providers as fallback; aliases take
 * their tier pool ordered by quality prior then price, filtered by the capabilities the
 * request needs.
 */
export function route(request: ChatRequest, catalog: Catalog): RoutingDecision {
  const forced = request.routingOverride?.forceModel;
  const requested = forced ?? request.model;
  const forcedTier = request.routingOverride?.forceTier;
  const isPool = requested in aliasTiers;
  const needed = isPool ? requiredCapabilities(request) : [];
  const key = isPool ? `${requested}|${forcedTier ?? ''}|${needed.join(',')}` : requested;
  let cache = plans.get(catalog);
  if (!cache) {
    cache = new Map();
    plans.set(catalog, cache);
  }
  let plan = cache.get(key);
  if (!plan) {
    plan = isPool ? planPool(requested, aliasTiers[requested]!, forcedTier, needed, catalog) : planPinned(requested, forced !== undefined, catalog);
    // Unknown pinned names throw above, so only real catalog entries are cached; the bound
    // keeps memory flat whatever callers send.
    if (cache.size < maxPlansPerCatalog) cache.set(key, plan);
  }
  const lane = request.routingOverride?.forceLane ?? plan.lane;
  return { model: plan.model, waterfall: plan.waterfall, candidates: plan.candidates, tier: plan.model.tier, lane, source: plan.source, taskFamily: null };
}

function planPinned(requested: string, forced: boolean, catalog: Catalog): Plan {
  const model = catalog.resolve(requested);
  if (model?.kind !== 'chat') {
    throw invalidRequest(
      `The model '${requested}' does not exist or is not available. GET /v1/models lists the available models.`,
      forced ? 'routing_override.force_model' : 'model',
      'model_not_found',
    );
  }
  const siblings = catalog.family(model.family).filter((m) => m.id !== model.id && m.kind === 'chat');
  const waterfall = [model, ...siblings];
  return { model, waterfall, candidates: waterfall.map((m) => m.id), lane: 'turbo', source: 'Pinned' };
}

function planPool(requested: string, pool: Tier | 'all' | 'safety', forcedTier: Tier | undefined, needed: readonly Capability[], catalog: Catalog): Plan {
  const chat = catalog.list({ kind: 'chat' });
  if (chat.length === 0) throw noProviderConfigured('No chat model is available: configure a provider key or enable the mock provider.');
  let candidates: ModelInfo[];
  if (forcedTier) candidates = chat.filter((m) => m.tier === forcedTier).sort(byQualityThenPrice);
  else if (pool === 'all') candidates = allTierOrder.flatMap((tier) => chat.filter((m) => m.tier === tier).sort(byQualityThenPrice));
  else if (pool === 'safety') {
    candidates = chat.filter((m) => m.safetyCritical === true);
    if (candidates.length === 0) candidates = chat.filter((m) => m.tier === 'T1');
    candidates.sort(byQualityThenPrice);
  } else candidates = chat.filter((m) => m.tier === pool).sort(byQualityThenPrice);
  const eligible = candidates.filter((m) => serves(m, needed));
  const first = eligible[0];
  if (!first) {
    throw invalidRequest(
      `No available model for '${requested}' supports what this request needs (${needed.join(', ') || 'chat'}).`,
      'model',
      'no_eligible_model',
    );
  }
  return { model: first, waterfall: eligible, candidates: eligible.map((m) => m.id), lane: 'smart', source: 'FirstPolicy' };
}

/**
 * Chat models of the catalog with a larger context window than `model` that serve `needed`:
 * the same family first, then the smallest sufficient window, then quality. Used after a
 * context-length error, whatever the alias or pin (the same window cannot succeed).
 */
export function largerContextModels(catalog: Catalog, model: ModelInfo, needed: readonly Capability[]): ModelInfo[] {
  return catalog
    .list({ kind: 'chat' })
    .filter((m) => m.contextWindow > model.contextWindow && serves(m, needed))
    .sort(
      (a, b) =>
        Number(b.family === model.family) - Number(a.family === model.family) ||
        a.contextWindow - b.contextWindow ||
        byQualityThenPrice(a, b),
    );
}
