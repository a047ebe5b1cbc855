import type { Tier } from '@svc/core';
import { featureDimension } from './features.js';
import { type TaskFamily, taskFamilies, tiers } from './types.js';

/** One observed result, as the learned policy sees it. */
export interface PolicyOutcome {
  taskFamily: TaskFamily;
  /** The request's feature vector (`toVector`), length `featureDimension`. */
  vector: ArrayLike<number>;
  tier: Tier;
  modelId: string;
  /** The model's catalog quality prior (0..1): the policy learns the residual from it. */
  prior: number;
  /** Observed quality in 0..1: 0 for a failure, else the quality signal (1 when none). */
  reward: number;
}

/**
 * A learned quality correction on top of the catalog priors. Predictions are synchronous and
 * allocation-free; `update` is O(d^2) and never waits on I/O.
 */
export interface RoutingPolicy {
  readonly name: string;
  /** Writes the learned quality adjustment of T1, T2, T3 (in that order) into `out`, exploration bonus included. */
  adjust(taskFamily: TaskFamily, vector: Float64Array, out: Float64Array): void;
  /** Learned per-model residual (0 when the model has no history), shrunk towards 0 for few samples. */
  modelAdjustment(modelId: string): number;
  update(outcome: PolicyOutcome): void;
  /** A JSON-safe snapshot of the weights. */
  serialize(): PolicySnapshot;
  /** Replaces the weights; throws when the snapshot's version or dimension does not match. */
  load(snapshot: PolicySnapshot): void;
}

export interface PolicySnapshot {
  version: 1;
  dimension: number;
  /** Per family, per tier (T1, T2, T3): A^-1 row-major, b, sample count. */
  arms: Record<string, { aInv: number[]; b: number[]; n: number }[]>;
  models: Record<string, { n: number; mean: number }>;
}

export interface LinUcbOptions {
  /** Upper-confidence exploration on (default) or off (pure exploitation). */
  explore?: boolean;
  /** Width of the confidence bonus. Default 0.05. */
  alpha?: number;
  /** Ceiling of the bonus, in quality units, so exploration stays bounded. Default 0.05. */
  maxBonus?: number;
  /** Ridge prior strength. Default 1. */
  ridge?: number;
  /** Samples at which a per-model residual counts half. Default 20. */
  modelShrink?: number;
}

interface Arm {
  aInv: Float64Array;
  b: Float64Array;
  theta: Float64Array;
  n: number;
}

const d = featureDimension;

function newArm(ridge: number): Arm {
  const aInv = new Float64Array(d * d);
  for (let i = 0; i < d; i++) aInv[i * d + i] = 1 / ridge;
  return { aInv, b: new Float64Array(d), theta: new Float64Array(d), n: 0 };
}

function solve(arm: Arm): void {
  const { aInv, b, theta } = arm;
  for (let i = 0; i < d; i++) {
    let s = 0;
    for (let j = 0; j < d; j++) s += aInv[i * d + j]! * b[j]!;
    theta[i] = s;
  }
}

/**
 * LinUCB (Li et al., 2010) with one ridge-regression arm per task family and tier, learning
 * how far observed quality falls from the catalog prior given the request's features. Updates
 * use the Sherman-Morrison identity, so nothing is ever inverted.
 */
export function createLinUcbPolicy(options: LinUcbOptions = {}): RoutingPolicy {
  const explore = options.explore ?? true;
  const alpha = options.alpha ?? 0.05;
  const maxBonus = options.maxBonus ?? 0.05;
  const ridge = options.ridge ?? 1;
  const shrink = options.modelShrink ?? 20;
  let arms = taskFamilies.map(() => tiers.map(() => newArm(ridge)));
  let models = new Map<string, { n: number; mean: number }>();
  const scratch = new Float64Array(d);
  const familyIndex = new Map(taskFamilies.map((f, i) => [f, i]));
  const tierIndex = new Map(tiers.map((t, i) => [t, i]));

  function predict(arm: Arm, x: ArrayLike<number>, withBonus: boolean): number {
    let mean = 0;
    for (let i = 0; i < d; i++) mean += arm.theta[i]! * x[i]!;
    if (!withBonus) return mean;
    let variance = 0;
    for (let i = 0; i < d; i++) {
      let s = 0;
      for (let j = 0; j < d; j++) s += arm.aInv[i * d + j]! * x[j]!;
      variance += x[i]! * s;
    }
    return mean + Math.min(maxBonus, alpha * Math.sqrt(Math.max(0, variance)));
  }

  return {
    name: explore ? 'LinUCB' : 'LinUCB-greedy',
    adjust(taskFamily, vector, out) {
      const row = arms[familyIndex.get(taskFamily) ?? 0]!;
      for (let t = 0; t < row.length; t++) out[t] = predict(row[t]!, vector, explore);
    },
    modelAdjustment(modelId) {
      const m = models.get(modelId);
      return m ? (m.mean * m.n) / (m.n + shrink) : 0;
    },
    update(outcome) {
      const arm = arms[familyIndex.get(outcome.taskFamily) ?? 0]?.[tierIndex.get(outcome.tier) ?? 1];
      if (!arm || outcome.vector.length < d || !Number.isFinite(outcome.reward)) return;
      const x = outcome.vector;
      const reward = Math.min(1, Math.max(0, outcome.reward));
      const residual = reward - outcome.prior;
      const tierResidual = residual - predict(arm, x, false);
      const { aInv } = arm;
      let denominator = 1;
      for (let i = 0; i < d; i++) {
        let s = 0;
        for (let j = 0; j < d; j++) s += aInv[i * d + j]! * x[j]!;
        scratch[i] = s;
        denominator += x[i]! * s;
      }
      for (let i = 0; i < d; i++) for (let j = 0; j < d; j++) aInv[i * d + j]! -= (scratch[i]! * scratch[j]!) / denominator;
      for (let i = 0; i < d; i++) arm.b[i]! += residual * x[i]!;
      arm.n++;
      solve(arm);
      const model = models.get(outcome.modelId) ?? { n: 0, mean: 0 };
      model.n++;
      model.mean += (tierResidual - model.mean) / model.n;
      models.set(outcome.modelId, model);
    },
    serialize() {
      const out: PolicySnapshot['arms'] = {};
      taskFamilies.forEach((family, f) => {
        out[family] = arms[f]!.map((arm) => ({ aInv: Array.from(arm.aInv), b: Array.from(arm.b), n: arm.n }));
      });
      return { version: 1, dimension: d, arms: out, models: Object.fromEntries(models) };
    },
    load(snapshot) {
      if (snapshot.version !== 1 || snapshot.dimension !== d) {
        throw new Error(`Policy snapshot version ${snapshot.version}/dimension ${snapshot.dimension} does not match 1/${d}.`);
      }
      arms = taskFamilies.map((family) =>
        tiers.map((_, t) => {
          const saved = snapshot.arms[family]?.[t];
          if (!saved || saved.aInv.length !== d * d || saved.b.length !== d) return newArm(ridge);
          const arm: Arm = { aInv: Float64Array.from(saved.aInv), b: Float64Array.from(saved.b), theta: new Float64Array(d), n: saved.n };
          solve(arm);
          return arm;
        }),
      );
      models = new Map(Object.entries(snapshot.models).map(([id, m]) => [id, { n: m.n, mean: m.mean }]));
    },
  };
}
