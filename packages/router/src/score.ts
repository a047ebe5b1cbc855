import type { Capability, ModelInfo } from '@svc/catalog';
import type { TaskComplexity, Tier } from '@svc/core';
import type { RequestFeatures } from './features.js';
import type { Preferences } from './preferences.js';
import type { Item, QualityEstimator } from './quality/estimator.js';
import { tierRank } from './preferences.js';
import type { RouteContext, ScoredCandidate } from './types.js';

/** Quality a model needs to answer a request of each class reliably (quality-prior scale). */
export const requiredQuality: Readonly<Record<TaskComplexity, number>> = { trivial: 0.5, standard: 0.7, complex: 0.82, expert: 0.9 };

/** Typical latency per tier when no live figure exists (spec §Tiers: T1 800-3000, T2 300-800, T3 100-300 ms). */
export const defaultLatencyMs: Readonly<Record<Tier, number>> = { T1: 1500, T2: 550, T3: 200 };

/** Expected completion tokens per class when the request sets no `max_tokens`. */
export const expectedCompletionTokens: Readonly<Record<TaskComplexity, number>> = { trivial: 60, standard: 350, complex: 900, expert: 1600 };

const stakes: Readonly<Record<TaskComplexity, number>> = { trivial: 0.6, standard: 1, complex: 1.5, expert: 2 };

/**
 * Latency ratio to the fastest candidate that takes the whole latency weight (log scale, clamped):
 * a tier apart (spec §Tiers: T3 100-300 ms, T1 800-3000 ms; the defaults' 200 / 1500 ms read 0.875)
 * weighs nearly all of it, a 10% lead 0.04. Not the candidates' own span, which gives the faster of
 * two the whole weight however small its lead.
 */
export const LATENCY_FULL_RATIO = 10;
const logFullRatio = Math.log(LATENCY_FULL_RATIO);

/** One eligible model with its score terms. */
export interface Scored {
  model: ModelInfo;
  score: number;
  quality: number;
  success: number;
  costUsd: number;
  latencyMs: number;
  overBudget: boolean;
  sticky: boolean;
  /** The score without the online adjustments (only with `ScoreInput.fresh`), for the tier guard. */
  fresh: number;
  /** Quality and P(success) without the online adjustments. */
  freshQuality: number;
  freshSuccess: number;
}

export interface ScoreInput {
  pool: readonly ModelInfo[];
  features: RequestFeatures;
  complexity: TaskComplexity;
  prefs: Preferences;
  needed: readonly Capability[];
  context: RouteContext;
  /** Learned adjustment per tier (T1, T2, T3). */
  tierAdjust: Float64Array;
  modelAdjust(modelId: string): number;
  stickyModel: string | undefined;
  completionTokens: number;
  /** Filled with why models were dropped (`id: reason`), for the error message. */
  dropped: Map<string, number>;
  /** Most the learned online adjustments may raise / lower a model's quality (default unbounded). */
  maxShift?: { up: number; down: number };
  /** The learned quality model and the request's difficulty: P(success) comes from it instead of the complexity class. */
  learned?: { estimator: QualityEstimator; item: Item };
  /** Only these model ids (`rank`'s candidates). */
  only?: ReadonlySet<string>;
  /** Also score every candidate without the online adjustments (`Scored.fresh`), in the same pass. */
  fresh?: boolean;
}

/** P(success) of a model of quality `quality`: learned from the request's difficulty when a quality model is given, else a logistic against the class's need. */
function successOf(input: ScoreInput, need: number, quality: number): number {
  return input.learned ? input.learned.estimator.pCorrect(quality, input.learned.item) : 1 / (1 + Math.exp((need - quality) / 0.04));
}

function serves(model: ModelInfo, needed: readonly Capability[]): boolean {
  for (const capability of needed) if (!model.capabilities.includes(capability)) return false;
  return true;
}

function drop(dropped: Map<string, number>, reason: string): void {
  dropped.set(reason, (dropped.get(reason) ?? 0) + 1);
}

/** A learned adjustment within its bounds (the tier's and the model's are bounded separately). */
const bound = (shift: number, limit: ScoreInput['maxShift']) => (limit === undefined ? shift : Math.min(limit.up, Math.max(-limit.down, shift)));

/** Filters the pool by hard constraints and scores the rest; unsorted. */
export function scoreCandidates(input: ScoreInput): Scored[] {
  const { pool, prefs, context, features, needed, dropped } = input;
  const need = requiredQuality[input.complexity];
  const contextNeeded = features.promptTokens + (features.maxTokens ?? Math.min(input.completionTokens, 1024));
  const out: Scored[] = [];
  let maxCost = 0;
  let minLatency = Number.POSITIVE_INFINITY;
  for (const model of pool) {
    const rank = tierRank(model.tier);
    if (input.only && !input.only.has(model.id)) drop(dropped, 'candidates');
    else if (rank < prefs.minRank || rank > prefs.maxRank) drop(dropped, 'tier');
    else if (prefs.freeOnly && !model.free && !model.openWeight) drop(dropped, 'free_models_only');
    else if (!serves(model, needed)) drop(dropped, 'capabilities');
    else if (model.contextWindow < contextNeeded || (features.maxTokens !== undefined && model.maxOutputTokens < features.maxTokens)) drop(dropped, 'context_window');
    else if (context.breakerOpen?.(model.id)) drop(dropped, 'breaker_open');
    else {
      const quality = Math.min(1, Math.max(0, model.qualityPrior + bound(input.tierAdjust[rank - 1]!, input.maxShift) + bound(input.modelAdjust(model.id), input.maxShift)));
      const success = successOf(input, need, quality);
      const freshQuality = Math.min(1, Math.max(0, model.qualityPrior));
      const freshSuccess = !input.fresh ? success : freshQuality === quality ? success : successOf(input, need, freshQuality);
      const costUsd = (features.promptTokens * model.inputPricePerMTok + input.completionTokens * model.outputPricePerMTok) / 1e6;
      const latencyMs = context.latencyMs?.(model.id) ?? defaultLatencyMs[model.tier];
      const overBudget = prefs.maxLatencyMs !== undefined && latencyMs > prefs.maxLatencyMs;
      out.push({ model, score: 0, quality, success, costUsd, latencyMs, overBudget, sticky: model.id === input.stickyModel, fresh: 0, freshQuality, freshSuccess });
      if (costUsd > maxCost) maxCost = costUsd;
      if (latencyMs < minLatency) minLatency = latencyMs;
    }
  }
  // Prices on a linear scale (share of the dearest candidate's cost): a 100x gap weighs far more
  // than a 2x one. Latency stays on a log scale: a 10x gap weighs the same anywhere on the range.
  const logMinLatency = Math.log(minLatency + 1);
  const { cost: wc, latency: wl } = prefs.weights;
  // A wrong answer costs more the harder the task, so quality weighs more as complexity grows.
  const wq = prefs.weights.quality * stakes[input.complexity];
  for (const s of out) {
    const costNorm = maxCost > 0 ? s.costUsd / maxCost : 0;
    const latencyNorm = Math.min(1, (Math.log(s.latencyMs + 1) - logMinLatency) / logFullRatio);
    const rest = -wc * costNorm - wl * latencyNorm - (s.overBudget ? Math.min(1.5, 0.5 * (s.latencyMs / prefs.maxLatencyMs! - 1)) : 0);
    s.score = wq * (0.7 * s.success + 0.3 * s.quality) + rest;
    s.fresh = input.fresh ? wq * (0.7 * s.freshSuccess + 0.3 * s.freshQuality) + rest : s.score;
  }
  return out;
}

/** Best first; ties go to the cheaper model. */
export function byScore(a: Scored, b: Scored): number {
  return b.score - a.score || a.costUsd - b.costUsd;
}

/** The public, explained form of a scored model (rounded for the decision log). */
export function explain(s: Scored): ScoredCandidate {
  return {
    id: s.model.id,
    score: round4(s.score),
    quality: round4(s.quality),
    pSuccess: round4(s.success),
    costUsd: s.costUsd,
    latencyMs: Math.round(s.latencyMs),
    overBudget: s.overBudget,
    sticky: s.sticky,
  };
}

function round4(value: number): number {
  return Math.round(value * 1e4) / 1e4;
}
