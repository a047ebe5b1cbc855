/** Judged outcomes of a candidate against the incumbent, ties apart (each may be fractional: feedback counts in part). */
export interface TieTally {
  wins: number;
  losses: number;
  ties: number;
}

/**
 * Bets in the mixture: a share c of the largest safe bet, c = (j + 0.5) / (2 BETS) for j < BETS (a
 * uniform prior over c in (0, 1/2), made discrete). Any fixed mixture is as valid; this one puts its
 * weight where the learner's decisions lie: a win rate a few points from its bar, ties common, is
 * best bet on with c ~0.1-0.3, and a bet above half the largest only pays on lopsided kinds, which
 * clear their bar within a few dozen pairs anyway (2026-12-05: a 0.54 win rate with 65% ties
 * clears 0.5 in a median of 345 pairs over 30 streams, against 444 with c over (0, 1)).
 */
const BETS = 32;
const SHARES = Array.from({ length: BETS }, (_, j) => (j + 0.5) / (2 * BETS));
/** How close the bound is found, always from below (it never reads tighter than it is): in win rate, or in log wealth; and at most how many wealth evaluations. */
const TOLERANCE = 1e-6;
const CLOSE = 1e-6;
const MAX_STEPS = 60;

/**
 * log of the mixture wealth of betting that the win rate (a win 1, a tie 1/2, a loss 0) is above
 * m: the mean over bets λ = c / m of Π (1 + λ (x - m)) over the outcomes x. For any fixed λ in
 * [0, 1/m] the product is a non-negative supermartingale whenever the true win rate is at most m,
 * whatever the share of ties, and so is a fixed mixture of them; it depends only on the counts.
 */
function logWealth({ wins, losses, ties }: TieTally, m: number): number {
  let top = Number.NEGATIVE_INFINITY;
  let sum = 0; // Σ exp(log - top), kept as top moves
  for (const share of SHARES) {
    const lambda = share / m;
    const log = wins * Math.log1p(lambda * (1 - m)) + ties * Math.log1p(lambda * (0.5 - m)) + losses * Math.log1p(-share);
    if (log > top) {
      sum = sum * Math.exp(top - log) + 1;
      top = log;
    } else sum += Math.exp(log - top);
  }
  return top + Math.log(sum / BETS);
}

/**
 * The always-valid lower bound of a win rate (ties half) at error share `alpha` over all looks: the
 * least m the wealth of betting above it has not yet multiplied by 1/alpha (Ville's inequality:
 * the chance that it ever does, when the true rate is m or less, is at most alpha). Betting sizes
 * itself to the outcomes' spread, so many ties (a small variance) narrow it where a bound for any
 * score in [0, 1] (variance 1/4) stays wide (Waudby-Smith and Ramdas, "Estimating means of bounded
 * random variables by betting", 2023, with a fixed mixture of bets instead of predictable ones so
 * that the counts suffice).
 */
function bettingLower(tally: TieTally, alpha: number): number {
  const n = tally.wins + tally.losses + tally.ties;
  if (n <= 0 || tally.wins + tally.ties <= 0) return 0;
  const mean = (tally.wins + tally.ties / 2) / n;
  const excess = (m: number) => logWealth(tally, m) - Math.log(1 / alpha); // decreasing in m; < 0 at the mean (Jensen)
  // A bracket [low, mean] with the wealth above 1/alpha at low: first a Hoeffding-sized step down, then 0.
  let low = Math.max(0, mean - 2 * Math.sqrt(Math.log(n + 1) / n));
  let atLow = low > 0 ? excess(low) : Number.POSITIVE_INFINITY;
  if (atLow < 0) [low, atLow] = [0, Number.POSITIVE_INFINITY];
  return illinois(excess, low, atLow, mean, excess(mean));
}

/** The root of a decreasing `f` in [low, high] (f(low) >= 0 > f(high)), within TOLERANCE (or CLOSE in f) below it: regula falsi (Illinois), halving while low is 0 and its value unbounded. */
function illinois(f: (m: number) => number, low: number, atLow: number, high: number, atHigh: number): number {
  let side = 0;
  for (let step = 0; step < MAX_STEPS && high - low > TOLERANCE; step++) {
    const m = Number.isFinite(atLow) ? low + (atLow * (high - low)) / (atLow - atHigh) : (low + high) / 2;
    const at = f(m);
    if (at >= 0) {
      if (at < CLOSE) return m;
      [low, atLow] = [m, at];
      if (side === 1) atHigh /= 2;
      side = 1;
    } else {
      [high, atHigh] = [m, at];
      if (side === -1) atLow /= 2;
      side = -1;
    }
  }
  return low;
}

/** Both one-sided bounds of `tally`'s win rate, each at `alpha` over all looks (the upper bound is the lower bound of the losses' side). */
export function bettingSequence(tally: TieTally, alpha: number): { lower: number; upper: number } {
  return { lower: bettingLower(tally, alpha), upper: 1 - bettingLower({ wins: tally.losses, losses: tally.wins, ties: tally.ties }, alpha) };
}
