import type { RequestFeatures } from '../features.js';
import { type QualityModel, difficulty, pCorrect, textSignalCount, textSignals } from './quality-model.js';

/** The quality model ready for the hot path: difficulty of a request, P(correct) of a model prior. */
export interface QualityEstimator {
  readonly model: QualityModel;
  /** Difficulty of a request (its embedding when given and of the right size, else text signals only). */
  difficulty(features: RequestFeatures, embedding?: ArrayLike<number>): number;
  /** Ability of a model with this quality prior (share of typical prompts answered well). */
  ability(prior: number): number;
  /** P(a model of this quality prior answers a request of difficulty `d` well). */
  pCorrect(prior: number, d: number): number;
  /**
   * The share of the training prompts' difficulty distribution on which `winRate(strong, weak)`
   * is at least `threshold`: what a threshold costs in strong calls on typical prompts.
   */
  strongShareAt(strongPrior: number, weakPrior: number, threshold: number): number;
  /** RouteLLM's calibration over the training prompts: the threshold that sends `share` of them to the strong model. */
  thresholdFor(strongPrior: number, weakPrior: number, share: number): number;
}

/** Win rate of strong over weak under independent outcomes: P(strong right, weak wrong) + half the ties = 0.5 + (Ps - Pw) / 2. */
export const winRateOf = (pStrong: number, pWeak: number): number => 0.5 + (pStrong - pWeak) / 2;

const gridMin = -15;
const gridStep = 0.02;
const gridSize = 1501;

export function createQualityEstimator(model: QualityModel): QualityEstimator {
  const q = model.difficultyQuantiles;
  // Expected accuracy over the training prompts on a grid of abilities (monotone), inverted by bisection.
  const accuracy = new Float64Array(gridSize);
  for (let g = 0; g < gridSize; g++) {
    let s = 0;
    for (let i = 0; i < q.length; i++) s += pCorrect(gridMin + g * gridStep, q[i]!);
    accuracy[g] = s / q.length;
  }
  const signals = new Float32Array(textSignalCount);
  const memo = new Map<number, number>();
  const thresholds = new Map<string, number>();

  function ability(prior: number): number {
    const cached = memo.get(prior);
    if (cached !== undefined) return cached;
    const p = Math.min(accuracy[gridSize - 1]!, Math.max(accuracy[0]!, prior));
    let lo = 0;
    let hi = gridSize - 1;
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (accuracy[mid]! < p) lo = mid;
      else hi = mid;
    }
    const span = accuracy[hi]! - accuracy[lo]! || 1;
    const theta = gridMin + (lo + (p - accuracy[lo]!) / span) * gridStep;
    if (memo.size < 10_000) memo.set(prior, theta);
    return theta;
  }

  const winAt = (strongPrior: number, weakPrior: number, d: number) => winRateOf(pCorrect(ability(strongPrior), d), pCorrect(ability(weakPrior), d));

  return {
    model,
    difficulty: (features, embedding) => difficulty(model, textSignals(features, signals), embedding),
    ability,
    pCorrect: (prior, d) => pCorrect(ability(prior), d),
    strongShareAt(strongPrior, weakPrior, threshold) {
      let n = 0;
      for (let i = 0; i < q.length; i++) if (winAt(strongPrior, weakPrior, q[i]!) >= threshold) n++;
      return n / q.length;
    },
    thresholdFor(strongPrior, weakPrior, share) {
      const key = `${strongPrior}:${weakPrior}:${share}`;
      const cached = thresholds.get(key);
      if (cached !== undefined) return cached;
      const wins = Array.from(q, (d) => winAt(strongPrior, weakPrior, d)).sort((a, b) => b - a);
      const threshold = thresholdForShare(wins, share);
      if (thresholds.size < 10_000) thresholds.set(key, threshold);
      return threshold;
    },
  };
}

/** The threshold that admits `share` of `winsDescending` (RouteLLM's calibration: a quantile of the observed win rates). */
export function thresholdForShare(winsDescending: readonly number[], share: number): number {
  if (!(share >= 0 && share <= 1)) throw new RangeError(`strongShare must be within 0..1, got ${share}`);
  if (share === 0) return Number.POSITIVE_INFINITY;
  const k = Math.max(1, Math.round(share * winsDescending.length));
  return winsDescending[k - 1]!;
}
