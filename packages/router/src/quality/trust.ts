import type { TaskFamily } from '../types.js';
import type { Item, QualityEstimator } from './estimator.js';

/**
 * Where a quality model's per-prompt ranking may be used: the task families on which its held-out
 * ranking was measurably above random (`tooling/evals` `router --trust`). Elsewhere the router
 * falls back to the prior: every prompt of the family is read as the typical training prompt, so
 * prompts are ranked alike (the models' quality priors decide), never by an inverted ranking.
 */
export interface QualityTrust {
  /** Task families whose ranking is used; a family absent or false falls back to the prior. */
  readonly families: Readonly<Partial<Record<TaskFamily, boolean>>>;
}

/** Every family trusted: a quality model the caller brings (trained on its own data) is used as it is. */
export const trustEverywhere: QualityTrust = {
  families: { code: true, math: true, analysis: true, writing: true, extraction: true, translation: true, chat: true },
};

/** The typical training prompt of a quality model: the median of its difficulty sample, with that prompt's discrimination. */
export function typicalItem(estimator: QualityEstimator): Item {
  const { difficultyQuantiles, discriminationSample } = estimator.model;
  const middle = difficultyQuantiles.length >> 1;
  return { d: difficultyQuantiles[middle]!, logA: discriminationSample[middle]! };
}

/** True when the quality model's reading of a prompt of this family is used (false: the prior). */
export const trusts = (trust: QualityTrust, family: TaskFamily): boolean => trust.families[family] === true;
