import { type Capability, type ModelInfo, tierPriors } from '@svc/catalog';
import type { Tier } from '@svc/core';

/** A model outside the catalog, described by the few fields routing needs. Prices: USD per million tokens. */
export interface ModelSpec {
  /** `provider/model` (or any unique name). */
  id: string;
  inputPricePerMTok: number;
  outputPricePerMTok: number;
  /** Default: from the quality prior (>= 0.85 T1, >= 0.7 T2, else T3), or T2 when neither is given. */
  tier?: Tier;
  /** Default 128,000 tokens. */
  contextWindow?: number;
  /** Default: the tier's typical prior (T1 0.88, T2 0.75, T3 0.6). Read as the share of typical prompts the model answers well. */
  qualityPrior?: number;
  /** Default min(16,384, contextWindow). */
  maxOutputTokens?: number;
  /** Default none (plain text chat). */
  capabilities?: readonly Capability[];
}

export { tierPriors };

function tierOf(prior: number | undefined): Tier {
  if (prior === undefined) return 'T2';
  return prior >= 0.85 ? 'T1' : prior >= 0.7 ? 'T2' : 'T3';
}

/** A catalog entry from a minimal spec, with the documented defaults. Throws RangeError on an invalid field. */
export function modelFromSpec(spec: ModelSpec): ModelInfo {
  const { id, inputPricePerMTok: input, outputPricePerMTok: output } = spec;
  if (typeof id !== 'string' || id.trim() === '') throw new RangeError('model spec: id must be a non-empty string');
  if (!(input >= 0) || !(output >= 0)) throw new RangeError(`model spec ${id}: prices must be non-negative numbers`);
  if (spec.qualityPrior !== undefined && !(spec.qualityPrior >= 0 && spec.qualityPrior <= 1)) throw new RangeError(`model spec ${id}: qualityPrior must be within 0..1`);
  const tier = spec.tier ?? tierOf(spec.qualityPrior);
  const contextWindow = spec.contextWindow ?? 128_000;
  const slash = id.indexOf('/');
  return {
    id,
    provider: slash > 0 ? id.slice(0, slash).toLowerCase() : 'custom',
    upstreamId: slash > 0 ? id.slice(slash + 1) : id,
    family: id,
    kind: 'chat',
    tier,
    contextWindow,
    maxOutputTokens: spec.maxOutputTokens ?? Math.min(16_384, contextWindow),
    inputPricePerMTok: input,
    outputPricePerMTok: output,
    capabilities: spec.capabilities ?? [],
    free: input === 0 && output === 0,
    openWeight: false,
    created: 0,
    qualityPrior: spec.qualityPrior ?? tierPriors[tier],
  };
}
