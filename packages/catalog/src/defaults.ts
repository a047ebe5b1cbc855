import type { Tier } from '@svc/core';
import type { Capability, ModelInfo, ModelSource } from './model.js';

/**
 * What an operator says about a provider's models the catalog does not list (SVC_CONFIG
 * `providers.<id>.model_defaults`): the entries built for passed-through and discovered models
 * take these values. Prices are USD per million tokens; without both token prices the models
 * are unpriced (tokens recorded, cost reported as unpriced, never as zero).
 */
export interface ModelDefaults {
  inputPricePerMTok?: number;
  outputPricePerMTok?: number;
  cachedInputPricePerMTok?: number;
  /** Default 128,000 tokens. */
  contextWindow?: number;
  /** Default min(16,384, contextWindow). */
  maxOutputTokens?: number;
  /** Default none (plain text chat). */
  capabilities?: readonly Capability[];
  /** Default T2. */
  tier?: Tier;
  /** Default the tier's typical prior (T1 0.88, T2 0.75, T3 0.6). */
  qualityPrior?: number;
  /** Open-weight models (vLLM, Ollama hosts): admitted by the free-models-only policy. Default false. */
  openWeight?: boolean;
}

/** The quality prior a tier implies when nothing better is known. */
export const tierPriors: Readonly<Record<Tier, number>> = { T1: 0.88, T2: 0.75, T3: 0.6 };

/**
 * A chat entry for `<provider>/<upstreamId>`, a model the catalog does not list, from the
 * provider's defaults. Its family is its own id (no fallback to other hosts), it is `routable:
 * false` (served only when named) when passed through or unpriced: an alias never sends traffic
 * to a model nobody described, nor to one whose zero price is only unknown. `unpriced` when the
 * defaults carry no token prices.
 */
export function modelFromDefaults(provider: string, upstreamId: string, defaults: ModelDefaults | undefined, source: ModelSource): ModelInfo {
  const d = defaults ?? {};
  const tier = d.tier ?? 'T2';
  const contextWindow = d.contextWindow ?? 128_000;
  const priced = d.inputPricePerMTok !== undefined && d.outputPricePerMTok !== undefined;
  const model: ModelInfo = {
    id: `${provider}/${upstreamId}`,
    provider,
    upstreamId,
    family: `${provider}/${upstreamId}`,
    kind: 'chat',
    tier,
    contextWindow,
    maxOutputTokens: d.maxOutputTokens ?? Math.min(16_384, contextWindow),
    inputPricePerMTok: d.inputPricePerMTok ?? 0,
    outputPricePerMTok: d.outputPricePerMTok ?? 0,
    capabilities: Object.freeze([...(d.capabilities ?? [])]),
    free: d.openWeight === true,
    openWeight: d.openWeight === true,
    created: 0,
    qualityPrior: d.qualityPrior ?? tierPriors[tier],
    routable: source !== 'passthrough' && priced,
    source,
  };
  if (d.cachedInputPricePerMTok !== undefined) model.cachedInputPricePerMTok = d.cachedInputPricePerMTok;
  if (!priced) model.unpriced = true;
  return Object.freeze(model);
}
