import type { Tier } from '@svc/core';
import { denseDimension, featureDimension, maxTerms, termBuckets } from './features.js';
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

interface Arm {
  aInv: Float64Array;
  b: Float64Array;
  theta: Float64Array;
  n: number;
}

const version = 2;
/** LinUCB context: the dense features, then the tier's success estimate (centred). */
const d = denseDimension + 1;
/** Success-model weights per tier: the dense features, one per term bucket, one per task family. */
const width = denseDimension + termBuckets + taskFamilies.length;
const familyWeight = denseDimension + termBuckets;

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
  const alpha = options.alpha ?? 0.05;
  const maxBonus = options.maxBonus ?? 0.05;
  const ridge = options.ridge ?? 1;
  const shrink = options.modelShrink ?? 20;
  const rate = options.learningRate ?? 0.05;
  const maxModels = options.maxModels ?? 4096;
  let arms = tiers.map(() => newArm(ridge));
  let models = new Map<string, { n: number; mean: number }>();
  let weights = new Float32Array(tiers.length * width);
  let squares = new Float32Array(tiers.length * width);
  let samples = tiers.map(() => 0);
  const context = new Float64Array(d);
  const scratch = new Float64Array(d);
  const familyIndex = new Map(taskFamilies.map((f, i) => [f, i]));
  const tierIndex = new Map(tiers.map((t, i) => [t, i]));

  /** Terms in `x` (its count entry, clamped). */
  const termCount = (x: ArrayLike<number>) => Math.max(0, Math.min(maxTerms, x.length - denseDimension - 1, x[denseDimension]! | 0));

  /** P(success) of tier `t` for `x` from its logistic model. */
  function success(t: number, f: number, x: ArrayLike<number>): number {
    const base = t * width;
    let z = weights[base + familyWeight + f]!;
    for (let j = 0; j < denseDimension; j++) z += weights[base + j]! * x[j]!;
    const n = termCount(x);
    if (n > 0) {
      let terms = 0;
      for (let i = 0; i < n; i++) terms += weights[base + denseDimension + ((x[denseDimension + 1 + i]! | 0) & (termBuckets - 1))]!;
      z += terms / Math.sqrt(n);
    }
    return 1 / (1 + Math.exp(-Math.max(-12, Math.min(12, z))));
  }

  /** Fills `context` with tier `t`'s LinUCB input; returns the success estimate. */
  function fill(t: number, f: number, x: ArrayLike<number>): number {
    for (let j = 0; j < denseDimension; j++) context[j] = x[j]!;
    const p = success(t, f, x);
    context[denseDimension] = p - 0.5;
    return p;
  }

  function predict(arm: Arm, x: Float64Array, withBonus: boolean): number {
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

  /** One AdaGrad step of tier `t`'s logistic model towards `reward`. */
  function learn(t: number, f: number, x: ArrayLike<number>, p: number, reward: number): void {
    const base = t * width;
    const g = p - reward;
    samples[t]!++;
    const kf = base + familyWeight + f;
    squares[kf]! += g * g;
    weights[kf]! -= (rate * g) / Math.sqrt(squares[kf]!);
    for (let j = 0; j < denseDimension; j++) {
      const gj = g * x[j]!;
      if (gj === 0) continue;
      squares[base + j]! += gj * gj;
      weights[base + j]! -= (rate * gj) / Math.sqrt(squares[base + j]!);
    }
    const n = termCount(x);
    if (n === 0 || g === 0) return;
    const gt = g / Math.sqrt(n);
    for (let i = 0; i < n; i++) {
      const k = base + denseDimension + ((x[denseDimension + 1 + i]! | 0) & (termBuckets - 1));
      squares[k]! += gt * gt;
      weights[k]! -= (rate * gt) / Math.sqrt(squares[k]!);
    }
  }

  return {
    name: explore() ? 'LinUCB' : 'LinUCB-greedy',
    adjust(taskFamily, vector, out) {
      const f = familyIndex.get(taskFamily) ?? 0;
      const bonus = explore();
      for (let t = 0; t < arms.length; t++) {
        fill(t, f, vector);
        out[t] = predict(arms[t]!, context, bonus);
      }
    },
    modelAdjustment(modelId) {
      const m = models.get(modelId);
      return m ? (m.mean * m.n) / (m.n + shrink) : 0;
    },
    update(outcome) {
      const t = tierIndex.get(outcome.tier) ?? 1;
      const f = familyIndex.get(outcome.taskFamily) ?? 0;
      const arm = arms[t];
      const x = outcome.vector;
      if (!arm || x.length < denseDimension + 1 || !Number.isFinite(outcome.reward) || !Number.isFinite(outcome.prior)) return;
      for (let j = 0; j < denseDimension; j++) if (!Number.isFinite(x[j]!)) return;
      const reward = Math.min(1, Math.max(0, outcome.reward));
      const residual = reward - outcome.prior;
      // The arm learns from the success model's estimate before this outcome trains it (progressive validation).
      const p = fill(t, f, x);
      const tierResidual = residual - predict(arm, context, false);
      const { aInv } = arm;
      let denominator = 1;
      for (let i = 0; i < d; i++) {
        let s = 0;
        for (let j = 0; j < d; j++) s += aInv[i * d + j]! * context[j]!;
        scratch[i] = s;
        denominator += context[i]! * s;
      }
      for (let i = 0; i < d; i++) for (let j = 0; j < d; j++) aInv[i * d + j]! -= (scratch[i]! * scratch[j]!) / denominator;
      for (let i = 0; i < d; i++) arm.b[i]! += residual * context[i]!;
      arm.n++;
      solve(arm);
      learn(t, f, x, p, reward);
      const model = models.get(outcome.modelId);
      if (model) {
        model.n++;
        model.mean += (tierResidual - model.mean) / model.n;
      } else if (models.size < maxModels) models.set(outcome.modelId, { n: 1, mean: tierResidual });
    },
    serialize() {
      return {
        version,
        dimension: featureDimension,
        context: d,
        buckets: termBuckets,
        arms: arms.map((arm) => ({ aInv: Array.from(arm.aInv), b: Array.from(arm.b), n: arm.n })),
        models: Object.fromEntries([...models].map(([id, m]) => [id, { n: m.n, mean: m.mean }])),
        success: { weights: toBase64(weights), squares: toBase64(squares), n: [...samples] },
      };
    },
    load(snapshot) {
      // Snapshots come back from storage: check every field before replacing anything.
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
      const nextArms = tiers.map((tier, t) => {
        const saved: unknown = savedArms[t];
        if (!isRecord(saved) || !finiteArray(saved['aInv'], d * d) || !finiteArray(saved['b'], d) || !count(saved['n'])) {
          throw new PolicySnapshotError(`policy snapshot: arm ${tier} is malformed`);
        }
        const arm: Arm = { aInv: Float64Array.from(saved['aInv']), b: Float64Array.from(saved['b']), theta: new Float64Array(d), n: saved['n'] };
        solve(arm);
        return arm;
      });
      const nextModels = new Map<string, { n: number; mean: number }>();
      for (const [id, m] of Object.entries(savedModels)) {
        if (!isRecord(m) || !count(m['n']) || typeof m['mean'] !== 'number' || !Number.isFinite(m['mean'])) throw new PolicySnapshotError(`policy snapshot: model ${id} is malformed`);
        if (nextModels.size < maxModels) nextModels.set(id, { n: m['n'], mean: m['mean'] });
      }
      const n = savedSuccess['n'];
      if (!Array.isArray(n) || n.length !== tiers.length || !n.every(count)) throw new PolicySnapshotError('policy snapshot: success.n is malformed');
      const nextWeights = fromBase64(savedSuccess['weights'], tiers.length * width, 'success.weights');
      const nextSquares = fromBase64(savedSuccess['squares'], tiers.length * width, 'success.squares');
      arms = nextArms;
      models = nextModels;
      weights = nextWeights;
      squares = nextSquares;
      samples = [...n];
    },
  };
}
