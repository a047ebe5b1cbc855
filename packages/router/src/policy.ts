import type { Tier } from '@svc/core';
import { denseDimension, featureDimension, termBuckets } from './features.js';
import { type Arm, type SuccessModels, d, learnSuccess, newArm, predictArm, solve, successOf, updateArm, width } from './policy-learners.js';
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
 * allocation-free; `update` costs O(d^2 + terms) and never waits on I/O.
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
  /**
   * Replaces the weights. Throws a `PolicySnapshotError` (and keeps the current weights) when the
   * snapshot's version or dimensions do not match this build or it is malformed.
   */
  load(snapshot: PolicySnapshot): void;
}

export interface PolicySnapshot {
  version: 2;
  /** `featureDimension` of the vectors the weights were learned from. */
  dimension: number;
  /** Length of a LinUCB context: the dense features and the success estimate. */
  context: number;
  /** Hash buckets of the text terms. */
  buckets: number;
  /** Per tier (T1, T2, T3): A^-1 row-major, b, sample count. */
  arms: { aInv: number[]; b: number[]; n: number }[];
  models: Record<string, { n: number; mean: number }>;
  /** The per-tier success models: little-endian Float32 weights and AdaGrad sums, base64; samples per tier. */
  success: { weights: string; squares: string; n: number[] };
}

/** A snapshot that this policy cannot load; the policy keeps the weights it had. */
export class PolicySnapshotError extends Error {
  override readonly name = 'PolicySnapshotError';
}

export interface LinUcbOptions {
  /**
   * Upper-confidence exploration on (default) or off (pure exploitation); a function is asked on
   * every decision, so an operator's switch applies at once.
   */
  explore?: boolean | (() => boolean);
  /** Width of the confidence bonus. Default 0.05. */
  alpha?: number;
  /** Ceiling of the bonus, in quality units, so exploration stays bounded. Default 0.05. */
  maxBonus?: number;
  /** Ridge prior strength. Default 1. */
  ridge?: number;
  /** Samples at which a per-model residual counts half. Default 20. */
  modelShrink?: number;
  /** AdaGrad step of the per-tier success models over the text terms. Default 0.05. */
  learningRate?: number;
  /** Most models with a learned residual; outcomes of further models only train the tiers. Default 4096. */
  maxModels?: number;
}

const version = 2;

/** Float32 values as little-endian bytes, base64 (how snapshots carry the success models). */
export const toBase64 = (values: Float32Array) => Buffer.from(values.buffer, values.byteOffset, values.byteLength).toString('base64');

/** Reads {@link toBase64}'s encoding back; throws PolicySnapshotError unless it holds `length` finite values. */
export function fromBase64(text: unknown, length: number, what: string): Float32Array<ArrayBuffer> {
  if (typeof text !== 'string') throw new PolicySnapshotError(`policy snapshot: ${what} is missing`);
  const bytes = Buffer.from(text, 'base64');
  if (bytes.byteLength !== length * 4) throw new PolicySnapshotError(`policy snapshot: ${what} has ${bytes.byteLength / 4} values, expected ${length}`);
  const out = new Float32Array(length);
  new Uint8Array(out.buffer).set(bytes);
  for (let i = 0; i < length; i++) if (!Number.isFinite(out[i]!)) throw new PolicySnapshotError(`policy snapshot: ${what} holds a non-finite value`);
  return out;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const finiteArray = (value: unknown, length: number): value is number[] =>
  Array.isArray(value) && value.length === length && value.every((v) => typeof v === 'number' && Number.isFinite(v));
const count = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value >= 0;

/**
 * Two learners per tier, both updated online by `update`:
 * - a logistic success model (AdaGrad) over the dense features, the hashed text terms and the
 *   task family: P(success | request, tier), `termBuckets` + a few dozen weights per tier;
 * - a LinUCB arm (Li et al., 2010), ridge regression of how far observed quality falls from the
 *   catalog prior, over the dense features and the success model's estimate (d =
 *   `denseDimension + 1`, O(d^2) Sherman-Morrison updates, nothing is ever inverted), whose
 *   confidence width gives the bounded exploration bonus.
 * The arms are shared by the task families (the family enters through the success model): on
 * held-out MMLU subjects per-family arms overfit, and shared arms learn seven times faster.
 */
export function createLinUcbPolicy(options: LinUcbOptions = {}): RoutingPolicy {
  const exploring = options.explore ?? true;
  const explore = typeof exploring === 'function' ? exploring : () => exploring;
  const bonus = { alpha: options.alpha ?? 0.05, maxBonus: options.maxBonus ?? 0.05 };
  const shrink = options.modelShrink ?? 20;
  const rate = options.learningRate ?? 0.05;
  const maxModels = options.maxModels ?? 4096;
  let state: PolicyState = {
    arms: tiers.map(() => newArm(options.ridge ?? 1)),
    models: new Map(),
    success: { weights: new Float32Array(tiers.length * width), squares: new Float32Array(tiers.length * width), samples: tiers.map(() => 0) },
  };
  const context = new Float64Array(d);
  const scratch = new Float64Array(d);
  const familyIndex = new Map(taskFamilies.map((f, i) => [f, i]));
  const tierIndex = new Map(tiers.map((t, i) => [t, i]));

  /** Fills `context` with tier `t`'s LinUCB input; returns the success estimate. */
  function fill(t: number, f: number, x: ArrayLike<number>): number {
    for (let j = 0; j < denseDimension; j++) context[j] = x[j]!;
    const p = successOf(state.success, t, f, x);
    context[denseDimension] = p - 0.5;
    return p;
  }

  return {
    name: explore() ? 'LinUCB' : 'LinUCB-greedy',
    adjust(taskFamily, vector, out) {
      const f = familyIndex.get(taskFamily) ?? 0;
      const withBonus = explore() ? bonus : undefined;
      for (let t = 0; t < state.arms.length; t++) {
        fill(t, f, vector);
        out[t] = predictArm(state.arms[t]!, context, withBonus);
      }
    },
    modelAdjustment(modelId) {
      const m = state.models.get(modelId);
      return m ? (m.mean * m.n) / (m.n + shrink) : 0;
    },
    update(outcome) {
      const t = tierIndex.get(outcome.tier) ?? 1;
      const f = familyIndex.get(outcome.taskFamily) ?? 0;
      const arm = state.arms[t];
      const x = outcome.vector;
      if (!arm || !usable(outcome)) return;
      const reward = Math.min(1, Math.max(0, outcome.reward));
      const residual = reward - outcome.prior;
      // The arm learns from the success model's estimate before this outcome trains it (progressive validation).
      const p = fill(t, f, x);
      const tierResidual = residual - predictArm(arm, context);
      updateArm(arm, context, residual, scratch);
      learnSuccess(state.success, { t, f, x, p, reward }, rate);
      addResidual(state.models, outcome.modelId, tierResidual, maxModels);
    },
    serialize: () => serializeState(state),
    load(snapshot) {
      state = parseSnapshot(snapshot, maxModels);
    },
  };
}

/** Whether an outcome can be learned from: finite reward, prior and dense features. */
function usable({ vector: x, reward, prior }: PolicyOutcome): boolean {
  if (x.length < denseDimension + 1 || !Number.isFinite(reward) || !Number.isFinite(prior)) return false;
  for (let j = 0; j < denseDimension; j++) if (!Number.isFinite(x[j]!)) return false;
  return true;
}

/** Adds one observed residual to the model's running mean (new models only while fewer than `maxModels` are known). */
function addResidual(models: Map<string, { n: number; mean: number }>, modelId: string, residual: number, maxModels: number): void {
  const model = models.get(modelId);
  if (model) {
    model.n++;
    model.mean += (residual - model.mean) / model.n;
  } else if (models.size < maxModels) models.set(modelId, { n: 1, mean: residual });
}

function serializeState({ arms, models, success }: PolicyState): PolicySnapshot {
  return {
    version,
    dimension: featureDimension,
    context: d,
    buckets: termBuckets,
    arms: arms.map((arm) => ({ aInv: Array.from(arm.aInv), b: Array.from(arm.b), n: arm.n })),
    models: Object.fromEntries([...models].map(([id, m]) => [id, { n: m.n, mean: m.mean }])),
    success: { weights: toBase64(success.weights), squares: toBase64(success.squares), n: [...success.samples] },
  };
}

/** What the policy has learned: the arms, the per-model residuals, the success models. */
interface PolicyState {
  arms: Arm[];
  models: Map<string, { n: number; mean: number }>;
  success: SuccessModels;
}

/** Checks every field of a stored snapshot (it comes back from storage) and builds the state it holds; throws PolicySnapshotError. */
function parseSnapshot(snapshot: PolicySnapshot, maxModels: number): PolicyState {
  const s: unknown = snapshot;
  if (!isRecord(s)) throw new PolicySnapshotError('policy snapshot is not an object');
  if (s['version'] !== version || s['dimension'] !== featureDimension || s['context'] !== d || s['buckets'] !== termBuckets) {
    throw new PolicySnapshotError(
      `policy snapshot version ${String(s['version'])}, dimension ${String(s['dimension'])} does not match this policy (version ${version}, dimension ${featureDimension}, context ${d}, buckets ${termBuckets})`,
    );
  }
  const savedArms = s['arms'];
  const savedModels = s['models'];
  const savedSuccess = s['success'];
  if (!Array.isArray(savedArms) || savedArms.length !== tiers.length || !isRecord(savedModels) || !isRecord(savedSuccess)) {
    throw new PolicySnapshotError('policy snapshot lacks arms (one per tier), models or success');
  }
  const arms = tiers.map((tier, t) => {
    const saved: unknown = savedArms[t];
    if (!isRecord(saved) || !finiteArray(saved['aInv'], d * d) || !finiteArray(saved['b'], d) || !count(saved['n'])) {
      throw new PolicySnapshotError(`policy snapshot: arm ${tier} is malformed`);
    }
    const arm: Arm = { aInv: Float64Array.from(saved['aInv']), b: Float64Array.from(saved['b']), theta: new Float64Array(d), n: saved['n'] };
    solve(arm);
    return arm;
  });
  const models = new Map<string, { n: number; mean: number }>();
  for (const [id, m] of Object.entries(savedModels)) {
    if (!isRecord(m) || !count(m['n']) || typeof m['mean'] !== 'number' || !Number.isFinite(m['mean'])) throw new PolicySnapshotError(`policy snapshot: model ${id} is malformed`);
    if (models.size < maxModels) models.set(id, { n: m['n'], mean: m['mean'] });
  }
  const n = savedSuccess['n'];
  if (!Array.isArray(n) || n.length !== tiers.length || !n.every(count)) throw new PolicySnapshotError('policy snapshot: success.n is malformed');
  const weights = fromBase64(savedSuccess['weights'], tiers.length * width, 'success.weights');
  const squares = fromBase64(savedSuccess['squares'], tiers.length * width, 'success.squares');
  return { arms, models, success: { weights, squares, samples: [...n] } };
}
