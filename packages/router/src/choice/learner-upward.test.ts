import { seededRandom } from '@svc/core';
import { describe, expect, it } from 'vitest';
import { bettingSequence } from './betting-bound.js';
import { type ChoiceLearner, type ChoiceLearnerOptions, UP_ALPHA, type Verdict, createChoiceLearner } from './learner.js';

const org = 'org-a';
const strong = { id: 'strong', cost: 10 };
const cheap = { id: 'cheap', cost: 1 };
/**
 * A request the router itself sent to the cheap model; the gateway's setting: tolerance 0.05, judge
 * assumed wrong on 15%. The pricier model moves it up once its lower bound is above 0.5, unless the
 * cheap one is proven within the tolerance of it (the pricier model's upper bound at most 0.5 + 0.7 x 0.05 = 0.535).
 */
const onCheap = { orgId: org, taskKind: 'analysis', incumbent: cheap, candidates: [strong], tolerance: 0.05 };
const onStrong = { ...onCheap, incumbent: strong, candidates: [cheap] };

/** `n` judged pairs of the strong model (the candidate) against the cheap one (served): it wins `win`, loses `loss` of them (shares), the rest tie. */
function judged(n: number, win: number, loss: number, options: ChoiceLearnerOptions = {}, seed = 1): ChoiceLearner {
  const learner = createChoiceLearner({ judgeError: 0.15, ...options });
  const random = seededRandom(seed);
  for (let i = 0; i < n; i++) {
    const draw = random();
    const verdict: Verdict = draw < win ? 'candidate' : draw < win + loss ? 'incumbent' : 'tie';
    learner.recordJudgedPair({ orgId: org, taskKind: 'analysis', incumbent: 'cheap', candidate: 'strong', verdict });
  }
  return learner;
}

describe('the learner moves a task kind up to a pricier model judged clearly better (issue 28)', () => {
  it('moves a cheap incumbent up when the pricier model is better with confidence, and not the other way', () => {
    // MMLU through a 15%-wrong judge: the strong model wins ~25%, loses ~12%, ties the rest (win rate ~0.565).
    const learner = judged(600, 0.25, 0.12);
    const estimate = learner.winRate({ orgId: org, taskKind: 'analysis', candidate: 'strong', incumbent: 'cheap' });
    expect(estimate.lower).toBeGreaterThan(0.5);
    expect(learner.choose(onCheap)).toMatchObject({ model: 'strong', reason: 'learned', estimate: { model: 'strong', incumbent: 'cheap', judged: 600 } });
    // The same pairs never send the strong model's own requests down (the bounds are symmetric).
    expect(learner.choose(onStrong)).toEqual({ model: 'strong', reason: 'incumbent' });
    // Once up, the choice is settled (nothing cheaper can win it back without new pairs); with revisits it stays open.
    expect(learner.unsure(onCheap)).toBe(false);
    expect(judged(600, 0.25, 0.12, { revisit: 0.05 }).unsure(onCheap)).toBe(true);
  });

  it('keeps the cheap incumbent when the pairs are even, or when it is proven within the tolerance of a better pricier model', () => {
    const even = judged(2000, 0.2, 0.2);
    expect(even.choose(onCheap)).toEqual({ model: 'cheap', reason: 'incumbent' });
    expect(even.unsure(onCheap)).toBe(false); // proven within the tolerance: settled
    // Better by ~0.02 in win rate over 6,000 pairs (bounds 0.505 and 0.533): better, but the cheap model is
    // proven within the tolerance of it (its own lower bound against it, 0.467, clears 0.465), so it stays.
    const within = judged(6000, 0.21, 0.18);
    const estimate = within.winRate({ orgId: org, taskKind: 'analysis', candidate: 'strong', incumbent: 'cheap' });
    expect(estimate.lower).toBeGreaterThan(0.5);
    expect(estimate.upper).toBeLessThan(0.535);
    expect(within.choose(onCheap)).toEqual({ model: 'cheap', reason: 'incumbent' });
    expect(within.unsure(onCheap)).toBe(false);
    // At dial 1 (tolerance 0) any model better with confidence is taken.
    expect(within.choose({ ...onCheap, tolerance: 0 })).toMatchObject({ model: 'strong', reason: 'learned' });
  });

  it('does not move on a few pairs, however one-sided, and keeps judging them', () => {
    const few = judged(19, 1, 0);
    expect(few.choose(onCheap)).toEqual({ model: 'cheap', reason: 'incumbent' });
    expect(few.unsure(onCheap)).toBe(true);
    expect(createChoiceLearner({ judgeError: 0.15 }).unsure(onCheap)).toBe(true); // nothing judged yet: open
  });

  it('prefers the move up when a cheaper model is within the tolerance of an incumbent the pricier one beats', () => {
    const mid = { id: 'mid', cost: 5 };
    const learner = createChoiceLearner({ judgeError: 0.15 });
    const random = seededRandom(2);
    for (let i = 0; i < 1500; i++) {
      learner.recordJudgedPair({ orgId: org, taskKind: 'analysis', incumbent: 'mid', candidate: 'cheap', verdict: 'tie' });
      const draw = random();
      learner.recordJudgedPair({ orgId: org, taskKind: 'analysis', incumbent: 'mid', candidate: 'strong', verdict: draw < 0.3 ? 'candidate' : draw < 0.4 ? 'incumbent' : 'tie' });
    }
    const request = { ...onCheap, incumbent: mid, candidates: [cheap, strong] };
    expect(learner.choose({ ...request, candidates: [cheap] })).toMatchObject({ model: 'cheap', reason: 'learned' });
    expect(learner.choose(request)).toMatchObject({ model: 'strong', reason: 'learned' });
  });

  it('explores a pricier model only within the bounded share, and a revisited move up is undone by what the revisits judge', () => {
    let draws = 0;
    const explorer = createChoiceLearner({ judgeError: 0.15, explore: 0.5, random: () => (draws++ % 20) / 20 });
    explorer.recordFeedback({ orgId: org, taskKind: 'analysis', model: 'cheap', score: 1 }); // the kind is known
    const tried = Array.from({ length: 1000 }, () => explorer.choose(onCheap).model).filter((m) => m === 'strong').length;
    expect(tried).toBe(50); // explore is capped at 0.05 of the choices
    // Promoted on a lucky start, then judged even on the revisited requests: back on the cheap model.
    let revisits = 0;
    const revisited = judged(600, 0.25, 0.12, { revisit: 0.05, random: () => (revisits++ % 20) / 20 });
    const served = Array.from({ length: 1000 }, () => revisited.choose(onCheap).model);
    expect(served.filter((m) => m === 'cheap').length).toBe(50); // 5% still reach the incumbent, where the pricier model is judged again
    for (let i = 0; i < 6000; i++) revisited.recordJudgedPair({ orgId: org, taskKind: 'analysis', incumbent: 'cheap', candidate: 'strong', verdict: i % 5 === 0 ? 'candidate' : i % 5 === 1 ? 'incumbent' : 'tie' });
    expect(revisited.choose(onCheap)).toEqual({ model: 'cheap', reason: 'incumbent' });
  });
});

/** `learner` records `n` pairs of one verdict of the strong model (the candidate) against the cheap one. */
function recordMany(learner: ChoiceLearner, verdict: Verdict, n: number): void {
  for (let i = 0; i < n; i++) learner.recordJudgedPair({ orgId: org, taskKind: 'analysis', incumbent: 'cheap', candidate: 'strong', verdict });
}

/** A learner whose strong model won 40, lost 20 and tied 40 of 100 pairs against the cheap one: 0.6, credible at UP_ALPHA only. */
function leadOfPoint6(options: ChoiceLearnerOptions = {}): ChoiceLearner {
  const learner = createChoiceLearner({ judgeError: 0.15, ...options });
  recordMany(learner, 'candidate', 40);
  recordMany(learner, 'incumbent', 20);
  recordMany(learner, 'tie', 40);
  return learner;
}

describe('a move up takes less evidence than a move down (upAlpha, issue 28, 2026-12-05)', () => {
  it('moves up on a lead credible at UP_ALPHA that the proof of a move down does not yet give, and never moves the strong model down on it', () => {
    const learner = leadOfPoint6();
    // 0.6 over 100 pairs: lower bound 0.526 at UP_ALPHA (0.25), 0.497 at alpha 0.05.
    expect(bettingSequence({ wins: 40, losses: 20, ties: 40 }, UP_ALPHA).lower).toBeGreaterThan(0.5);
    expect(learner.winRate({ orgId: org, taskKind: 'analysis', candidate: 'strong', incumbent: 'cheap' }).lower).toBeLessThan(0.5);
    expect(learner.choose(onCheap)).toMatchObject({ model: 'strong', reason: 'learned' });
    expect(learner.unsure(onCheap)).toBe(false);
    expect(learner.choose(onStrong)).toEqual({ model: 'strong', reason: 'incumbent' });
    // Held to the proof of a move down (upAlpha = alpha), the same pairs keep the cheap choice and stay open.
    const proof = createChoiceLearner({ judgeError: 0.15, upAlpha: 0.05 });
    proof.load({ ...learner.serialize(), up: [] }); // the counts, not the kind held up
    expect(proof.choose(onCheap)).toEqual({ model: 'cheap', reason: 'incumbent' });
    expect(proof.unsure(onCheap)).toBe(true);
  });

  it('moves a moved-up kind back down once the cheap model is proven within the tolerance, its lead still credible', () => {
    const learner = leadOfPoint6();
    expect(learner.choose(onCheap).model).toBe('strong');
    recordMany(learner, 'tie', 600);
    // 0.509 over 700 pairs: still above 0.5 at UP_ALPHA (0.504), but its upper bound at alpha 0.05 (0.530)
    // is within 0.5 + 0.7 x 0.05: the cheap model is proven within the tolerance, the move down's own proof.
    expect(bettingSequence({ wins: 40, losses: 20, ties: 640 }, UP_ALPHA).lower).toBeGreaterThan(0.5);
    expect(learner.choose(onCheap)).toEqual({ model: 'cheap', reason: 'incumbent' });
    expect(learner.choose(onStrong)).toMatchObject({ model: 'cheap', reason: 'learned' });
  });
});

describe('a kind moved up is held there until the cheap model is proven within the tolerance (holdUp, issue 28, 2026-12-05)', () => {
  const analysis = { orgId: org, taskKind: 'analysis', candidate: 'strong', incumbent: 'cheap' };

  it('stays up when a weak lead\'s bound dips back under 0.5, where the rule before moved it back (and forth)', () => {
    const [held, before] = [leadOfPoint6(), leadOfPoint6({ holdUp: false })];
    for (const learner of [held, before]) {
      expect(learner.choose(onCheap).model).toBe('strong');
      recordMany(learner, 'incumbent', 10);
    }
    // 0.545 over 110 pairs: no longer credible at UP_ALPHA, the cheap model not proven within the tolerance either.
    expect(bettingSequence({ wins: 40, losses: 30, ties: 40 }, UP_ALPHA).lower).toBeLessThan(0.5);
    expect(held.winRate(analysis).upper).toBeGreaterThan(0.5 + 0.7 * 0.05);
    expect(held.choose(onCheap)).toMatchObject({ model: 'strong', reason: 'learned' });
    expect(before.choose(onCheap)).toEqual({ model: 'cheap', reason: 'incumbent' });
    // The held kind is in the snapshot: a restarted instance keeps it up.
    expect(held.serialize().up).toEqual([[org, 'analysis', 'cheap', 'strong']]);
    const restarted = createChoiceLearner({ judgeError: 0.15 });
    restarted.load(held.serialize());
    expect(restarted.choose(onCheap).model).toBe('strong');
  });

  it('judges a held kind whose lead is no longer credible as open, one whose lead is credible as settled', () => {
    const learner = leadOfPoint6();
    expect(learner.choose(onCheap).model).toBe('strong');
    expect(learner.unsure(onCheap)).toBe(false); // credible lead: settled, judged at the settled share
    recordMany(learner, 'incumbent', 10);
    // 0.545 over 110 pairs: held up, its bound at UP_ALPHA under 0.5; a judged pair may bring the proof down.
    expect(learner.choose(onCheap)).toMatchObject({ model: 'strong', reason: 'learned' });
    expect(learner.unsure(onCheap)).toBe(true);
    recordMany(learner, 'candidate', 30);
    expect(learner.unsure(onCheap)).toBe(false); // credible again: settled again
  });

  it('lets it go on the proof down, and moves it up again only on a lead credible again', () => {
    const learner = createChoiceLearner({ judgeError: 0.15 });
    recordMany(learner, 'candidate', 40);
    recordMany(learner, 'incumbent', 30);
    recordMany(learner, 'tie', 40);
    expect(learner.choose(onCheap).model).toBe('cheap'); // never credible: nothing held
    recordMany(learner, 'candidate', 30);
    expect(learner.choose(onCheap).model).toBe('strong');
    recordMany(learner, 'tie', 1400);
    // ~0.51 over 1,540 pairs: the cheap model proven within the tolerance (upper bound at most 0.535).
    expect(learner.winRate(analysis).upper).toBeLessThanOrEqual(0.5 + 0.7 * 0.05);
    expect(learner.choose(onCheap)).toEqual({ model: 'cheap', reason: 'incumbent' });
    expect(learner.serialize().up).toEqual([]);
  });
});
