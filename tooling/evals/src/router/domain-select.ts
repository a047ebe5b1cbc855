/**
 * The out-of-distribution threshold chosen on training sources only (docs/routing.md, "Prompts
 * unlike the training data"): for a set of training sources, leave one of them out in turn, train
 * the quality model and fit the prototypes on the others, and measure every candidate threshold's
 * margin over random on the left-out source's pairs. The chosen threshold is the one with the best
 * mean margin among those that leave no validation set below random by more than `slack` (sets
 * noisier than `maxNoise` not read); with none such, the strictest (the most prompts sent to the prior).
 */
import type { QualityModel, QualityTrust, RequestEmbedder, TrainingDomain } from '@svc/router';
import { evaluatePair } from './api-eval.js';
import type { Item } from './data.js';
import { pairs, priorPool } from './pairs.js';

/** A threshold of 0 reads every prompt of a trusted family (no distance check). */
export const thresholdCandidates: readonly number[] = [0, 0.15, 0.18, 0.2, 0.22, 0.2377, 0.26, 0.28];

/** Margins over random of each candidate (same order as the candidates) on one validation set. */
export interface ValidationSet {
  name: string;
  margins: readonly number[];
  /** Random routing's APGR sd of one order on this set. */
  noise: number;
}

/**
 * Sets noisier than this are not read by the choice: a pair whose two models are a few points apart
 * has a PGR scale so short that random's APGR sd of one order is ~0.3 (arena-bench's Claude pair),
 * which would outweigh every other set in a mean (fixed before the run).
 */
export const maxNoise = 0.1;

/** How far below random a validation set may fall (the goal's 0.01). */
export const inversionSlack = 0.01;

/** The index of the chosen candidate (`candidates` ascending: a higher threshold is stricter). */
export function chooseThreshold(all: readonly ValidationSet[], slack = inversionSlack): number {
  const sets = all.filter((s) => s.noise <= maxNoise);
  const count = sets[0]?.margins.length ?? 0;
  let best = -1;
  let bestMean = Number.NEGATIVE_INFINITY;
  for (let c = 0; c < count; c++) {
    if (sets.some((s) => s.margins[c]! < -slack)) continue;
    const mean = sets.reduce((sum, s) => sum + s.margins[c]!, 0) / sets.length;
    if (mean > bestMean + 1e-9) {
      best = c;
      bestMean = mean;
    }
  }
  return best >= 0 ? best : count - 1;
}

/** A quality model and prototypes fitted on some training sources, with those sources' items (for the priors). */
export interface Fitted {
  quality: QualityModel;
  domain: Omit<TrainingDomain, 'minSimilarity' | 'kept'>;
  train: readonly Item[];
}

export interface SelectionInput {
  items: readonly Item[];
  sources: readonly string[];
  /** The model and prototypes fitted on exactly these sources (memoised by the caller: folds share them). */
  fitted: (sources: readonly string[]) => Fitted;
  trust: QualityTrust;
  embedder: RequestEmbedder;
  candidates?: readonly number[];
}

/** Margins of one fitted model with its prototypes at each candidate threshold, on `dev`'s pairs. */
export async function marginsAt(input: Pick<SelectionInput, 'trust' | 'embedder'> & Fitted & { dev: readonly Item[]; candidates: readonly number[] }): Promise<ValidationSet[]> {
  const out: ValidationSet[] = [];
  for (const pair of pairs) {
    const dev = input.dev.filter((i) => i.source === pair.source);
    if (dev.length === 0) continue;
    const margins: number[] = [];
    let noise = 0;
    for (const minSimilarity of input.candidates) {
      const quality = { ...input.quality, domain: minSimilarity > 0 ? { ...input.domain, minSimilarity, kept: 0 } : undefined };
      const r = await evaluatePair(pair, { quality, priors: priorPool(pair, input.train, dev), dev, embedder: input.embedder, trust: input.trust });
      if (!r) break;
      margins.push(r.learned.apgr - r.random.apgr);
      noise = r.random.apgrSd;
    }
    if (margins.length === input.candidates.length) out.push({ name: `${pair.source}: ${pair.strong} / ${pair.weak}`, margins, noise });
  }
  return out;
}

/** Leave one of `sources` out in turn (fitted on the rest of them only): every candidate's margins on each left-out source's pairs. */
export async function validate(input: SelectionInput): Promise<ValidationSet[]> {
  const candidates = input.candidates ?? thresholdCandidates;
  const out: ValidationSet[] = [];
  for (const held of input.sources) {
    const fitted = input.fitted(input.sources.filter((s) => s !== held));
    const dev = input.items.filter((i) => i.source === held);
    out.push(...(await marginsAt({ ...fitted, dev, candidates, trust: input.trust, embedder: input.embedder })));
  }
  return out;
}
