import { invalidRequest } from '@svc/core';
import type { Item, QualityEstimator } from './quality/estimator.js';
import type { Scored } from './score.js';
import type { RouteContext } from './types.js';

export interface CascadeInput {
  estimator: QualityEstimator;
  item: Item;
  context: RouteContext;
}

export interface CascadeChoice {
  strong: string;
  weak: string;
  winRate: number;
  threshold: number;
}

function pick(scored: readonly Scored[], id: string | undefined, fallback: (s: Scored, best: Scored) => boolean): Scored {
  if (id !== undefined) {
    const found = scored.find((s) => s.model.id === id);
    if (found) return found;
  }
  let best = scored[0]!;
  for (const s of scored) if (fallback(s, best)) best = s;
  return best;
}

/**
 * Strong/weak routing over the eligible candidates (sorted best first, reordered in place): the
 * strong model goes first when its win rate over the weak one reaches the threshold, else the weak
 * one; the other candidates keep their order behind.
 */
export function chooseCascade(scored: Scored[], input: CascadeInput): CascadeChoice {
  const { estimator, item, context } = input;
  const strong = pick(scored, context.strongModel, (s, best) => s.model.qualityPrior > best.model.qualityPrior);
  const weak = pick(scored, context.weakModel, (s, best) => s.costUsd < best.costUsd);
  const winRate = estimator.winRate(strong.model.qualityPrior, weak.model.qualityPrior, item);
  let threshold = context.threshold;
  if (threshold === undefined) {
    const share = context.strongShare!;
    if (!(share >= 0 && share <= 1)) throw invalidRequest(`strongShare must be within 0..1 (got ${String(share)})`, 'strong_share');
    threshold = estimator.thresholdFor(strong.model.qualityPrior, weak.model.qualityPrior, share);
  }
  const chosen = winRate >= threshold ? strong : weak;
  const at = scored.indexOf(chosen);
  if (at > 0) scored.unshift(...scored.splice(at, 1));
  return { strong: strong.model.id, weak: weak.model.id, winRate, threshold };
}
