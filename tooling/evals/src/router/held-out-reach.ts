/**
 * What a per-unit choice reaches on prompts it was not chosen on: units (task kinds, clusters)
 * decided on one half of the labelled prompts and applied to the other half, with every outcome of
 * the fitting half known, or learned from a judged stream of it (a noisy judge, a bound that needs
 * confidence) as the gateway's learner would.
 */
import { seededRandom } from '@svc/core';
import { createChoiceLearner, type Verdict } from '@svc/router';
import { type Reach, type Unit, floorShares, reach, served } from './reachable.js';

/** One labelled prompt: whether each model answers it right. */
export interface Outcome {
  strong: boolean;
  weak: boolean;
}

/** Units 0..count-1 from each prompt's unit id; the strong model costs 1 a request, the cheaper `weakCost`. */
export function unitsById(outcomes: readonly Outcome[], ids: ArrayLike<number>, count: number, weakCost: number): Unit[] {
  const units = Array.from({ length: count }, () => ({ n: 0, strongRight: 0, weakRight: 0, strongCost: 0, weakCost: 0 }));
  outcomes.forEach((o, i) => {
    const u = units[ids[i]!]!;
    u.n++;
    u.strongRight += Number(o.strong);
    u.weakRight += Number(o.weak);
    u.strongCost += 1;
    u.weakCost += weakCost;
  });
  return units;
}

export interface HeldOut {
  /** The fitting half's own oracle and least cost at the floor: optimistic. */
  inSample: Reach;
  /** The fitting half's least-cost shares applied to the other half's units. */
  applied: { quality: number; cost: number };
  /** The other half's least cost at the floor along the fitting half's order of units (least loss per saving first, the last in part): the stopping point read on the other half. */
  path: { quality: number; cost: number };
}

/** What units decided on `fit` reach on `other` (the same unit ids), at quality `floor` against always-strong. */
export function heldOutReach(fit: readonly Unit[], other: readonly Unit[], floor: number): HeldOut {
  return { inSample: reach(fit, floor), applied: served(other, floorShares(fit, floor)), path: pathAtFloor(fit, other, floor) };
}

/** Moves `other`'s units to the cheaper model in `fit`'s order of loss per saving; the furthest point (least cost) whose quality is still at least `floor`. */
export function pathAtFloor(fit: readonly Unit[], other: readonly Unit[], floor: number): { quality: number; cost: number } {
  const strongRight = other.reduce((s, u) => s + u.strongRight, 0);
  const strongCost = other.reduce((s, u) => s + u.strongCost, 0);
  const lossPerSaving = (u: Unit) => (u.strongRight - u.weakRight) / (u.strongCost - u.weakCost);
  const order = fit.map((u, i) => ({ u, i })).filter(({ u }) => u.n > 0).sort((a, b) => lossPerSaving(a.u) - lossPerSaving(b.u));
  let right = strongRight;
  let cost = strongCost;
  let best = { quality: 1, cost: 1 };
  for (const { i } of order) {
    const o = other[i]!;
    const gain = o.weakRight - o.strongRight;
    // The share of this unit that keeps quality at the floor: all of it when the move keeps it there.
    const share = right + gain >= floor * strongRight ? 1 : gain < 0 && right > floor * strongRight ? (right - floor * strongRight) / -gain : 0;
    if (share > 0) best = { quality: (right + share * gain) / strongRight, cost: (cost - share * (o.strongCost - o.weakCost)) / strongCost };
    right += gain;
    cost -= o.strongCost - o.weakCost;
  }
  return best;
}

/** Judged pairs of the cheaper model (the candidate) against the strong one, by verdict. */
export interface Tally {
  wins: number;
  losses: number;
  ties: number;
}

export interface JudgedStream {
  /** Judged pairs, each on a prompt drawn uniformly from the fitting half. */
  pairs: number;
  /** Share of verdicts flipped (a tie flips to a random win), as `simulate.ts`'s judge. */
  flip: number;
  seed: number;
}

/** The judge's verdict on one prompt: the truth, flipped with probability `flip`. */
function verdictOf(o: Outcome, flip: number, next: () => number): Verdict {
  const truth: Verdict = o.strong === o.weak ? 'tie' : o.weak ? 'candidate' : 'incumbent';
  if (next() >= flip) return truth;
  if (truth === 'tie') return next() < 0.5 ? 'candidate' : 'incumbent';
  return truth === 'candidate' ? 'incumbent' : 'candidate';
}

/** Each unit's tally from a judged stream over the fitting half's prompts. */
export function judgedTallies(outcomes: readonly Outcome[], ids: ArrayLike<number>, count: number, stream: JudgedStream): Tally[] {
  const next = seededRandom(stream.seed);
  const tallies = Array.from({ length: count }, () => ({ wins: 0, losses: 0, ties: 0 }));
  for (let p = 0; p < stream.pairs; p++) {
    const i = Math.floor(next() * outcomes.length);
    const t = tallies[ids[i]!]!;
    const v = verdictOf(outcomes[i]!, stream.flip, next);
    if (v === 'candidate') t.wins++;
    else if (v === 'incumbent') t.losses++;
    else t.ties++;
  }
  return tallies;
}

/** How a unit is moved to the cheaper model: the tolerance (in win rate) and the judge's assumed error share, as the learner takes them. */
export interface MoveRule {
  tolerance: number;
  judgeError: number;
}

/** Per unit, 1 when the gateway's learner (`createChoiceLearner`, betting bound, >= 20 pairs) fed the unit's tally moves it to the cheaper model. */
export function learnerShares(tallies: readonly Tally[], rule: MoveRule, weakCost: number): number[] {
  const learner = createChoiceLearner({ judgeError: rule.judgeError });
  const pair = { orgId: 'org', incumbent: 'strong', candidate: 'weak' };
  return tallies.map((t, unit) => {
    const taskKind = String(unit);
    for (const [verdict, n] of [['candidate', t.wins], ['incumbent', t.losses], ['tie', t.ties]] as const) {
      for (let j = 0; j < n; j++) learner.recordJudgedPair({ ...pair, taskKind, verdict });
    }
    const choice = learner.choose({ orgId: 'org', taskKind, incumbent: { id: 'strong', cost: 1 }, candidates: [{ id: 'weak', cost: weakCost }], tolerance: rule.tolerance });
    return choice.model === 'weak' ? 1 : 0;
  });
}

/** Per unit, 1 when a fixed-n one-sided normal bound at `z` (1.645: 95%; 0: the point estimate) on the judged win rate (ties half) clears 0.5 - (1 - 2e) x tolerance over >= 20 pairs: looser than the learner's always-valid bound. */
export function simpleShares(tallies: readonly Tally[], rule: MoveRule, z: number): number[] {
  const bar = 0.5 - (1 - 2 * rule.judgeError) * rule.tolerance;
  return tallies.map(({ wins, losses, ties }) => {
    const n = wins + losses + ties;
    if (n < 20) return 0;
    const mean = (wins + ties / 2) / n;
    const variance = (wins + ties / 4) / n - mean * mean;
    return mean - z * Math.sqrt(variance / n) >= bar ? 1 : 0;
  });
}
