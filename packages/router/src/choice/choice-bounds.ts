import { type TieTally, bettingSequence } from './betting-bound.js';
import type { CountedTally, Query } from './choice-tallies.js';
import { type SequenceSettings, type Tally, type WinEstimate, confidenceSequence, posteriorMean, wilson } from './win-estimate.js';

/** How the learner bounds a win rate (part of `ChoiceLearnerOptions`). */
export interface BoundOptions {
  /**
   * The bounds a promotion is held to. All but `wilson` are always-valid (they hold however often
   * they are checked: the choice is rechecked on every request, and a fixed-n interval looked at
   * that often is crossed by a lucky early run). `betting` (default): the betting confidence
   * sequence (`bettingSequence`), which reads ties as ties (a score of 1/2 with a small spread, not
   * a coin), at `sequence.alpha`. `sequence`: Robbins' normal mixture for any score in [0, 1]
   * (`confidenceSequence`, the default of 2026-12-04, which needs ~3x the pairs on a tie-heavy
   * kind). `wilson`: Wilson's interval at `z` (the rule before 2026-12-04, kept for comparison).
   */
  bound?: 'betting' | 'sequence' | 'wilson';
  /** The confidence sequence's error share over all looks (both always-valid bounds) and the normal mixture's width (`sequence`). Default alpha 0.05, rho 10. */
  sequence?: Partial<SequenceSettings>;
  /**
   * The error share over all looks of a move up's own bound (the always-valid bounds only): a
   * pricier model replaces a cheaper incumbent once its lower bound at this share is above 0.5.
   * Larger than `sequence.alpha` because a move up risks cost, not quality; the cheap incumbent
   * proven within the tolerance (at `sequence.alpha`) still keeps it, and a moved-up kind moves
   * back on that proof. Default `UP_ALPHA` (0.25); `sequence.alpha` holds moves up to the proof of moves down.
   */
  upAlpha?: number;
  /** One-sided normal quantile of the Wilson bounds (`bound: 'wilson'`). Default 1.645 (95%). */
  z?: number;
}

/** A tally's bounds under the learner's rule. */
export type Bounds = (tally: TieTally) => { lower: number; upper: number };

/**
 * The error share of a move up's bound (`ChoiceLearnerOptions.upAlpha`), decided once: an even kind
 * may move up in at most a quarter of streams over all looks (fewer in practice: once the cheap
 * model is proven within the tolerance it stays), and what that costs is the pricier model's price
 * on a kind it serves as well, never an answer worse than the tolerance (docs/routing.md, "Up-moves
 * on less evidence", 2026-12-05).
 */
export const UP_ALPHA = 0.25;

/** A tally read as a coin: ties half a win and half a loss. */
const halved = ({ wins, losses, ties }: TieTally): Tally => ({ wins: wins + ties / 2, losses: losses + ties / 2 });

/** The candidate's estimate from its tally, under `bounds`. */
export function estimateOf(query: Query, counted: CountedTally, bounds: Bounds): WinEstimate {
  const { judged, feedback, ...tally } = counted;
  return { model: query.candidate, incumbent: query.incumbent, winRate: posteriorMean(halved(tally)), ...bounds(tally), judged, feedback };
}

/** The learner's bounds at `alpha` (Wilson's: at `z` whatever the alpha, kept for comparison). */
export function boundsOf(options: BoundOptions, alpha: number): Bounds {
  if (options.bound === 'wilson') {
    const z = options.z ?? 1.645;
    return (tally) => wilson(halved(tally), z);
  }
  const sequence = { alpha, rho: options.sequence?.rho ?? 10 };
  if (options.bound === 'sequence') return (tally) => confidenceSequence(halved(tally), sequence);
  return remembered((tally) => bettingSequence(tally, alpha));
}

/** Bounds kept per tally (the betting bound takes ~0.1 ms; a kind's tally changes only when a pair or a score is recorded). */
function remembered(bounds: Bounds): Bounds {
  const kept = new Map<string, { lower: number; upper: number }>();
  return (tally) => {
    const at = `${tally.wins} ${tally.losses} ${tally.ties}`;
    let found = kept.get(at);
    if (found === undefined) {
      if (kept.size >= 4096) kept.clear();
      found = bounds(tally);
      kept.set(at, found);
    }
    return found;
  };
}
