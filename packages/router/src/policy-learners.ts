import { denseDimension, maxTerms, termBuckets } from './features.js';
import { taskFamilies } from './types.js';

/** One LinUCB arm: A^-1, b, theta = A^-1 b, sample count. */
export interface Arm {
  aInv: Float64Array;
  b: Float64Array;
  theta: Float64Array;
  n: number;
}

/** LinUCB context: the dense features, then the tier's success estimate (centred). */
export const d = denseDimension + 1;
/** Success-model weights per tier: the dense features, one per term bucket, one per task family. */
export const width = denseDimension + termBuckets + taskFamilies.length;
const familyWeight = denseDimension + termBuckets;

export function newArm(ridge: number): Arm {
  const aInv = new Float64Array(d * d);
  for (let i = 0; i < d; i++) aInv[i * d + i] = 1 / ridge;
  return { aInv, b: new Float64Array(d), theta: new Float64Array(d), n: 0 };
}

export function solve(arm: Arm): void {
  const { aInv, b, theta } = arm;
  for (let i = 0; i < d; i++) {
    let s = 0;
    for (let j = 0; j < d; j++) s += aInv[i * d + j]! * b[j]!;
    theta[i] = s;
  }
}

/** The arm's predicted residual for context `x`, plus the confidence bonus (at most `maxBonus`) when `bonus` is given. */
export function predictArm(arm: Arm, x: Float64Array, bonus?: { alpha: number; maxBonus: number }): number {
  let mean = 0;
  for (let i = 0; i < d; i++) mean += arm.theta[i]! * x[i]!;
  if (!bonus) return mean;
  let variance = 0;
  for (let i = 0; i < d; i++) {
    let s = 0;
    for (let j = 0; j < d; j++) s += arm.aInv[i * d + j]! * x[j]!;
    variance += x[i]! * s;
  }
  return mean + Math.min(bonus.maxBonus, bonus.alpha * Math.sqrt(Math.max(0, variance)));
}

/** Sherman-Morrison update of the arm with context `x` and observed `residual` (`scratch`: d floats). */
export function updateArm(arm: Arm, x: Float64Array, residual: number, scratch: Float64Array): void {
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
}

/** The per-tier logistic success models (AdaGrad): weights, squared-gradient sums, samples per tier. */
export interface SuccessModels {
  weights: Float32Array;
  squares: Float32Array;
  samples: number[];
}

/** Terms in `x` (its count entry, clamped). */
const termCount = (x: ArrayLike<number>) => Math.max(0, Math.min(maxTerms, x.length - denseDimension - 1, x[denseDimension]! | 0));

/** P(success) of tier `t` for `x` (task family `f`) from its logistic model. */
export function successOf(m: SuccessModels, t: number, f: number, x: ArrayLike<number>): number {
  const base = t * width;
  const { weights } = m;
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

/** One AdaGrad step (rate `rate`) of tier `t`'s logistic model towards `reward`, from its estimate `p`. */
export function learnSuccess(m: SuccessModels, step: { t: number; f: number; x: ArrayLike<number>; p: number; reward: number }, rate: number): void {
  const { t, f, x } = step;
  const { weights, squares } = m;
  const base = t * width;
  const g = step.p - step.reward;
  m.samples[t]!++;
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
