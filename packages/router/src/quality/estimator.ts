import type { RequestFeatures } from '../features.js';
import { type QualityModel, difficulty, logDiscrimination, pCorrect, textSignalCount, textSignals } from './quality-model.js';

/** The quality model ready for the hot path: difficulty of a request, P(correct) of a model prior. */
export interface QualityEstimator {
  readonly model: QualityModel;
  /** Difficulty and log discrimination of a request (its embedding when given and of the right size, else text signals only). */
  item(features: RequestFeatures, embedding?: ArrayLike<number>): Item;
  /** Ability of a model with this quality prior (share of typical prompts answered well). */
  ability(prior: number): number;
  /** P(a model of this quality prior answers the request well). */
  pCorrect(prior: number, item: Item): number;
  /** Estimated probability that the `strongPrior` model's answer beats the `weakPrior` one's on the request (see {@link WinRateForm}). */
  winRate(strongPrior: number, weakPrior: number, item: Item, form?: WinRateForm): number;
  /**
   * The share of the training prompts' difficulty distribution on which `winRate(strong, weak)`
   * is at least `threshold`: what a threshold costs in strong calls on typical prompts.
   */
  strongShareAt(strongPrior: number, weakPrior: number, threshold: number): number;
  /** RouteLLM's calibration over the training prompts: the threshold that sends `share` of them to the strong model. */
  thresholdFor(strongPrior: number, weakPrior: number, share: number): number;
}

/** A request as the quality model sees it: difficulty `d` and log discrimination `logA`. */
export interface Item {
  d: number;
  logA: number;
}

/**
 * How a win rate is read from the item model.
 * - `independent` (default): independent outcomes, P(strong right, weak wrong) + half the ties
 *   = 0.5 + (P_s - P_w) / 2.
 * - `weaker-fails`: the abler model's edge shows where the less able one fails:
 *   0.5 + 0.5 tanh(theta_s - theta_w) (1 - P_weaker); it grows with difficulty.
 */
export type WinRateForm = 'weaker-fails' | 'independent';

/** The win rate of abilities `strong` and `weak` on `item`. */
export function winRateOf(strong: number, weak: number, item: Item, form: WinRateForm = 'independent'): number {
  if (form === 'independent') return 0.5 + (pCorrect(strong, item.d, item.logA) - pCorrect(weak, item.d, item.logA)) / 2;
  return 0.5 + 0.5 * Math.tanh(strong - weak) * (1 - pCorrect(Math.min(strong, weak), item.d, item.logA));
}

const gridMin = -15;
const gridStep = 0.02;
const gridSize = 1501;

export function createQualityEstimator(model: QualityModel): QualityEstimator {
  const sample: Item[] = Array.from(model.difficultyQuantiles, (d, i) => ({ d, logA: model.discriminationSample[i]! }));
  // Expected accuracy over the training prompts on a grid of abilities (monotone), inverted by bisection.
  const accuracy = new Float64Array(gridSize);
  for (let g = 0; g < gridSize; g++) {
    let s = 0;
    for (const item of sample) s += pCorrect(gridMin + g * gridStep, item.d, item.logA);
    accuracy[g] = s / sample.length;
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

  const winAt = (strongPrior: number, weakPrior: number, item: Item, form?: WinRateForm) => winRateOf(ability(strongPrior), ability(weakPrior), item, form);

  return {
    model,
    item(features, embedding) {
      textSignals(features, signals);
      return { d: difficulty(model, signals, embedding), logA: logDiscrimination(model, signals, embedding) };
    },
    ability,
    pCorrect: (prior, item) => pCorrect(ability(prior), item.d, item.logA),
    winRate: winAt,
    strongShareAt(strongPrior, weakPrior, threshold) {
      let n = 0;
      for (const item of sample) if (winAt(strongPrior, weakPrior, item) >= threshold) n++;
      return n / sample.length;
    },
    thresholdFor(strongPrior, weakPrior, share) {
      const key = `${strongPrior}:${weakPrior}:${share}`;
      const cached = thresholds.get(key);
      if (cached !== undefined) return cached;
      const wins = sample.map((item) => winAt(strongPrior, weakPrior, item)).sort((a, b) => b - a);
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
