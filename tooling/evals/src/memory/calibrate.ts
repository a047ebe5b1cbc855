import type { CueWeights } from '@svc/memory';
import { type Floors, falseInjection, type Recalled, type RelatedProbe, relatedHit } from './recall-eval.js';

const GRID = Array.from({ length: 81 }, (_, i) => Math.round((0.2 + i * 0.01) * 100) / 100);
/** Cue weights tried: no bonus, then growing bonuses for a shared word and for the asked-for slot. */
const WORD_WEIGHTS = [0, 0.03, 0.05, 0.1];
const SLOT_WEIGHTS = [0, 0.1, 0.15, 0.2, 0.25];

/**
 * The floors for these weights: first the lowest floor at which prompts that do not refer to their
 * user stay under half the false-injection budget on their own, then the lowest floor for
 * self-referring prompts that keeps the whole set under it.
 */
export function calibrateFloors(unrelated: readonly Recalled[], ceiling: number, weights: CueWeights): Floors {
  const others = unrelated.filter((p) => !p.self);
  const other = GRID.find((t) => falseInjection(others, { self: 1, other: t }, weights) * (others.length / unrelated.length) <= ceiling / 2) ?? 1;
  const self = GRID.find((t) => falseInjection(unrelated, { self: t, other }, weights) <= ceiling) ?? 1;
  return { self, other };
}

/** The weights (and their floors) that get the most dev questions their fact; the smaller weights on a tie. */
export function chooseWeights(dev: { related: readonly RelatedProbe[]; unrelated: readonly Recalled[] }, ceiling: number, report: (weights: CueWeights, floors: Floors) => void) {
  let best: { weights: CueWeights; floors: Floors; relatedHitDev: number } | undefined;
  for (const wordHit of WORD_WEIGHTS) {
    for (const slotHit of SLOT_WEIGHTS) {
      const weights = { wordHit, slotHit };
      const floors = calibrateFloors(dev.unrelated, ceiling, weights);
      report(weights, floors);
      const hit = relatedHit(dev.related, floors, weights);
      if (!best || hit > best.relatedHitDev) best = { weights, floors, relatedHitDev: hit };
    }
  }
  return best!;
}
