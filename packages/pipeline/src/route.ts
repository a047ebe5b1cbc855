import type { Capability, Catalog, ModelInfo } from '@svc/catalog';
import { type ChatRequest, type Lane, type Tier, invalidRequest, noProviderConfigured } from '@svc/core';

/** The outcome of the route stage: what to call, in order. */
export interface RoutingDecision {
  /** The first choice. */
  model: ModelInfo;
  /** Every candidate in order, the first choice included: the call stage walks it. */
  waterfall: readonly ModelInfo[];
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

/**
 * The first routing policy (the router issue replaces it): explicit models are honoured
 * exactly, with same-family models on other configured providers as fallback; aliases take
 * their tier pool ordered by quality prior then price, filtered by the capabilities the
 * request needs.
 */
export function route(request: ChatRequest, catalog: Catalog): RoutingDecision {
  const forced = request.routingOverride?.forceModel;
  const requested = forced ?? request.model;
  const pool = aliasTiers[requested];
  const lane = request.routingOverride?.forceLane;

  if (pool === undefined) {
    const model = catalog.resolve(requested);
    if (model?.kind !== 'chat') {
      throw invalidRequest(
        `The model '${requested}' does not exist or is not available. GET /v1/models lists the available models.`,
        forced ? 'routing_override.force_model' : 'model',
        'model_not_found',
      );
    }
    const siblings = catalog.family(model.family).filter((m) => m.id !== model.id && m.kind === 'chat');
    return { model, waterfall: [model, ...siblings], tier: model.tier, lane: lane ?? 'turbo', source: 'Pinned', taskFamily: null };
  }

  const needed = requiredCapabilities(request);
  const chat = catalog.list({ kind: 'chat' });
  if (chat.length === 0) throw noProviderConfigured('No chat model is available: configure a provider key or enable the mock provider.');
  const forcedTier = request.routingOverride?.forceTier;
  let candidates: ModelInfo[];
  if (forcedTier) candidates = chat.filter((m) => m.tier === forcedTier);
  else if (pool === 'all') candidates = allTierOrder.flatMap((tier) => chat.filter((m) => m.tier === tier).sort(byQualityThenPrice));
  else if (pool === 'safety') {
    candidates = chat.filter((m) => m.safetyCritical === true);
    if (candidates.length === 0) candidates = chat.filter((m) => m.tier === 'T1');
  } else candidates = chat.filter((m) => m.tier === pool);
  if (pool !== 'all' || forcedTier) candidates.sort(byQualityThenPrice);
  const eligible = candidates.filter((m) => serves(m, needed));
  const first = eligible[0];
  if (!first) {
    throw invalidRequest(
      `No available model for '${requested}' supports what this request needs (${needed.join(', ') || 'chat'}).`,
      'model',
      'no_eligible_model',
    );
  }
  return { model: first, waterfall: eligible, tier: first.tier, lane: lane ?? 'smart', source: 'FirstPolicy', taskFamily: null };
}
