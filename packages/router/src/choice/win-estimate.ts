/** What the learner knows of one candidate against the current choice (the incumbent) for one organisation and task kind. */
export interface WinEstimate {
  /** The candidate model. */
  model: string;
  /** The incumbent it was compared with. */
  incumbent: string;
  /** Posterior mean of P(candidate's answer is at least as good), ties counted half: Beta(1 + wins, 1 + losses). */
  winRate: number;
  /** Bounds of the win rate under the learner's rule (`ChoiceLearnerOptions.bound`; one-sided each). */
  lower: number;
  upper: number;
  /** Judged pairs behind the estimate. */
  judged: number;
  /** Feedback scores behind it (pairs of the two models' scores, as effective samples). */
  feedback: number;
}

/** Counts of one comparison, candidate's view: wins and losses may be fractional (a tie or a feedback score counts in part). */
export interface Tally {
  wins: number;
  losses: number;
}

/** Wilson score interval of `wins` out of `wins + losses` at the normal quantile `z`; [0, 1] with no samples. */
export function wilson({ wins, losses }: Tally, z: number): { lower: number; upper: number } {
  const n = wins + losses;
  if (n <= 0) return { lower: 0, upper: 1 };
  const p = wins / n;
  const z2 = z * z;
  const centre = p + z2 / (2 * n);
  const spread = z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  const denominator = 1 + z2 / n;
  return { lower: Math.max(0, (centre - spread) / denominator), upper: Math.min(1, (centre + spread) / denominator) };
}

/** Beta(1 + wins, 1 + losses)'s mean: 0.5 with no samples. */
export const posteriorMean = ({ wins, losses }: Tally): number => (1 + wins) / (2 + wins + losses);

/** How a confidence sequence is tuned: its error share over all looks, and the mixture's width. */
export interface SequenceSettings {
  /** Chance, over every look at a growing tally, that the true win rate ever leaves the bound (one-sided). */
  alpha: number;
  /** The normal mixture's precision, in units of variance (samples / 4): the bound is tightest near 4 x rho x log(1/alpha) samples. */
  rho: number;
}

/**
 * An always-valid (time-uniform) one-sided bound on each side of a win rate: Robbins' normal
 * mixture for scores in [0, 1] (sub-Gaussian, variance 1/4). Unlike Wilson's interval, it holds
 * at level `alpha` however often it is checked as the tally grows, so a lucky early run does not
 * clear it by being looked at on every request. Ties count half (they are scores of 1/2).
 */
export function confidenceSequence({ wins, losses }: Tally, { alpha, rho }: SequenceSettings): { lower: number; upper: number } {
  const n = wins + losses;
  if (n <= 0) return { lower: 0, upper: 1 };
  const v = n / 4;
  const radius = Math.sqrt(2 * (v + rho) * Math.log(Math.sqrt((v + rho) / rho) / alpha)) / n;
  const p = wins / n;
  return { lower: Math.max(0, p - radius), upper: Math.min(1, p + radius) };
}
