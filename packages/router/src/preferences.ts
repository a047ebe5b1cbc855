import { type ChatRequest, type Lane, type RoutingMode, type TaskComplexity, type Tier, invalidRequest } from '@svc/core';
import { complexities } from './types.js';

/** Relative weights of the three scoring terms. */
export interface Weights {
  quality: number;
  cost: number;
  latency: number;
}

/** Mode presets (spec §Routing modes); used when no explicit knob overrides them. */
export const modePresets: Readonly<Record<RoutingMode, Weights>> = {
  auto: { quality: 1, cost: 0.45, latency: 0.25 },
  balanced: { quality: 1, cost: 0.45, latency: 0.25 },
  fast: { quality: 0.5, cost: 0.2, latency: 1.2 },
  quality: { quality: 1.6, cost: 0.1, latency: 0.1 },
  cost_optimized: { quality: 0.8, cost: 1.4, latency: 0.15 },
  free_models_only: { quality: 1, cost: 0.2, latency: 0.25 },
};

/** What the hints, overrides and request facts resolve to, validated. */
export interface Preferences {
  mode: RoutingMode;
  weights: Weights;
  /** Most premium tier rank allowed (1 = T1) and least premium (3 = T3). */
  minRank: number;
  maxRank: number;
  /** The complexity the caller stated (`task_complexity`), if any. */
  statedComplexity: TaskComplexity | undefined;
  /** Class shift from `reasoning_effort`: -1 minimal/low, +1 high. */
  effortShift: number;
  maxLatencyMs: number | undefined;
  freeOnly: boolean;
  forceTier: Tier | undefined;
  forceLane: Lane | undefined;
  sticky: boolean;
  allowFreeFallback: boolean;
  notApplied: string[];
}

const modes = new Set<string>(Object.keys(modePresets));
const lanes = new Set<string>(['smart', 'turbo']);

/** `T1`, `t1`, `tier-1`, `tier1`, `tier_1`, `1` -> `T1`; undefined when not a tier. */
export function parseTier(value: string): Tier | undefined {
  const match = /^(?:t|tier[-_ ]?)?([123])$/i.exec(value.trim());
  return match ? (`T${match[1]}` as Tier) : undefined;
}

/** Tier rank: 1 for T1 (quality) .. 3 for T3 (speed). */
export function tierRank(tier: Tier): number {
  return tier === 'T1' ? 1 : tier === 'T2' ? 2 : 3;
}

type Hints = NonNullable<ChatRequest['routingHints']>;
type Override = NonNullable<ChatRequest['routingOverride']>;

/** The scoring weights of the mode preset after the dial, preferences, batch tier and reasoning effort; and the effort's class shift. */
function resolveWeights(request: ChatRequest, hints: Hints, mode: RoutingMode): { weights: Weights; effortShift: number } {
  let weights = { ...modePresets[mode] };
  const dial = hints.preferenceDial;
  if (dial !== undefined) {
    if (typeof dial !== 'number' || Number.isNaN(dial)) throw invalidRequest('routing_hints.preference_dial must be a number.', 'routing_hints.preference_dial');
    const d = Math.min(1, Math.max(0, dial));
    // An explicit dial replaces the preset's quality/speed balance; prefer_quality also drops its cost bias.
    const cost = hints.preferQuality ? modePresets.balanced.cost : weights.cost;
    weights = { quality: 0.2 + 1.6 * d, cost, latency: 0.05 + 1.45 * (1 - d) };
  } else if (hints.preferQuality) weights.quality *= 1.3;
  if (hints.preferLatency) {
    weights.latency *= 4;
    weights.quality *= 0.7;
  }
  if (request.serviceTier === 'batch') {
    weights.cost *= 2.5;
    weights.latency *= 0.3;
  }
  const effort = request.reasoningEffort ?? request.reasoning?.effort;
  let effortShift = 0;
  if (effort === 'high') {
    effortShift = 1;
    weights.quality *= 1.3;
  } else if (effort === 'low' || effort === 'minimal') {
    effortShift = -1;
    weights.cost *= 1.5;
    if (effort === 'minimal') weights.latency *= 1.5;
  }
  return { weights, effortShift };
}

/** The tier ranks allowed by `task_complexity` and `max_tier`, validated. */
function tierBounds(hints: Hints): { minRank: number; maxRank: number } {
  let minRank = 1;
  let maxRank = 3;
  const stated = hints.taskComplexity;
  if (stated !== undefined) {
    if (!complexities.includes(stated)) throw invalidRequest(`routing_hints.task_complexity must be one of ${complexities.join(', ')}.`, 'routing_hints.task_complexity');
    if (stated === 'trivial') minRank = 2;
    else if (stated === 'complex') maxRank = 2;
    else if (stated === 'expert') maxRank = 1;
  }
  if (hints.maxTier !== undefined) {
    if (hints.maxTier !== 1 && hints.maxTier !== 2 && hints.maxTier !== 3) throw invalidRequest('routing_hints.max_tier must be 1, 2 or 3.', 'routing_hints.max_tier');
    // The guardrail wins over a complexity floor: max_tier caps spend whatever the task.
    minRank = Math.max(minRank, hints.maxTier);
    maxRank = Math.max(maxRank, minRank);
  }
  return { minRank, maxRank };
}

/** `force_tier`, validated. */
function forcedTier(override: Override): Tier | undefined {
  if (override.forceTier === undefined) return undefined;
  const tier = typeof override.forceTier === 'string' ? parseTier(override.forceTier) : undefined;
  if (!tier) throw invalidRequest('routing_override.force_tier must be T1, T2 or T3.', 'routing_override.force_tier');
  return tier;
}

/**
 * Resolves the routing knobs of a request. Out-of-range `preference_dial` values are clamped
 * (spec §Limits); values of the wrong kind throw `invalidRequest` naming the field.
 */
export function resolvePreferences(request: ChatRequest, orgFreeOnly: boolean): Preferences {
  const hints = request.routingHints ?? {};
  const override = request.routingOverride ?? {};
  const notApplied: string[] = [];
  const mode = hints.mode ?? 'auto';
  if (!modes.has(mode)) throw invalidRequest(`routing_hints.mode must be one of ${[...modes].join(', ')}.`, 'routing_hints.mode');
  const { weights, effortShift } = resolveWeights(request, hints, mode);
  let { minRank, maxRank } = tierBounds(hints);
  const maxLatencyMs = hints.maxLatencyMs;
  if (maxLatencyMs !== undefined && !(typeof maxLatencyMs === 'number' && maxLatencyMs > 0)) {
    throw invalidRequest('routing_hints.max_latency_ms must be a positive integer.', 'routing_hints.max_latency_ms');
  }
  const forceTier = forcedTier(override);
  if (forceTier) minRank = maxRank = tierRank(forceTier);
  const forceLane = override.forceLane;
  if (forceLane !== undefined && !lanes.has(forceLane)) throw invalidRequest('routing_override.force_lane must be smart or turbo.', 'routing_override.force_lane');
  if (override.forceProvider !== undefined) notApplied.push('routing_override.force_provider');
  if (hints.maxCostPerToken !== undefined) notApplied.push('routing_hints.max_cost_per_token');
  return {
    mode,
    weights,
    minRank,
    maxRank,
    statedComplexity: hints.taskComplexity,
    effortShift,
    maxLatencyMs,
    freeOnly: orgFreeOnly || mode === 'free_models_only',
    forceTier,
    forceLane,
    sticky: hints.chainRouting !== 'mixed',
    allowFreeFallback: hints.allowFreeFallback === true,
    notApplied,
  };
}
