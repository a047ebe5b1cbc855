import { describe, expect, it } from 'vitest';
import { type ChoiceLearnerOptions, type Verdict, createChoiceLearner as createAnyLearner } from './learner.js';
import { mergeChoiceSnapshots } from './snapshot.js';

/** These tests check the fixed-n (Wilson) arithmetic; the default always-valid bound is tested in learner-sequence.test.ts. */
const createChoiceLearner = (options: ChoiceLearnerOptions = {}) => createAnyLearner({ bound: 'wilson', ...options });

const org = 'org-a';
const big = { id: 'big', cost: 10 };
const mid = { id: 'mid', cost: 3 };
const small = { id: 'small', cost: 1 };

/** `wins` candidate wins, `losses` incumbent wins and `ties` ties of `candidate` against 'big' on code. */
function judge(learner = createChoiceLearner(), candidate: string, wins: number, losses: number, ties = 0, orgId = org) {
  const record = (verdict: Verdict, n: number) => {
    for (let i = 0; i < n; i++) learner.recordJudgedPair({ orgId, taskKind: 'code', incumbent: 'big', candidate, verdict });
  };
  record('candidate', wins);
  record('incumbent', losses);
  record('tie', ties);
  return learner;
}

const ask = (tolerance: number, orgId = org) => ({ orgId, taskKind: 'code', incumbent: big, candidates: [mid, small], tolerance });

describe('createChoiceLearner', () => {
  it('keeps the incumbent with nothing learned', () => {
    expect(createChoiceLearner().choose(ask(0.1))).toEqual({ model: 'big', reason: 'incumbent' });
  });

  it('routes to the cheapest model whose win rate is within the tolerance with confidence', () => {
    // mid even with the incumbent, small at 0.37; an even model needs ~270 pairs to clear 0.45 at 95%.
    const learner = judge(judge(undefined, 'mid', 100, 100, 100), 'small', 24, 56, 40);
    expect(learner.choose(ask(0.05))).toMatchObject({ model: 'mid', reason: 'learned' });
    expect(learner.choose(ask(0.25))).toMatchObject({ model: 'small', reason: 'learned' });
    const estimate = learner.winRate({ orgId: org, taskKind: 'code', candidate: 'small', incumbent: 'big' });
    expect(estimate.winRate).toBeCloseTo(45 / 122, 10); // Beta(1 + 24 + 20, 1 + 56 + 20)
    expect(estimate.lower).toBeGreaterThan(0.25);
    expect(estimate.upper).toBeLessThan(0.45);
    expect(estimate.judged).toBe(120);
  });

  it("applies the tolerance to the true gap when told the judge's error share", () => {
    // A 0.47 judged win rate over 4,000 pairs (lower bound ~0.457) clears 0.45; a judge wrong on 15%
    // shows a true 0.457 as 0.47, so the bar becomes 0.5 - 0.7 x 0.05 = 0.465, which it misses.
    const pairs = (learner: ReturnType<typeof createChoiceLearner>) => judge(learner, 'mid', 1080, 1320, 1600);
    expect(pairs(createChoiceLearner()).choose(ask(0.05))).toMatchObject({ model: 'mid', reason: 'learned' });
    expect(pairs(createChoiceLearner({ judgeError: 0.15 })).choose(ask(0.05))).toMatchObject({ model: 'big', reason: 'incumbent' });
    // Per organisation (the gateway's setting): org-a's judge at 15%, org-b's at 0; an answer beyond 0.45 is clamped.
    const perOrg = createChoiceLearner({ judgeError: (orgId) => (orgId === org ? 0.15 : 0) });
    pairs(perOrg);
    judge(perOrg, 'mid', 1080, 1320, 1600, 'org-b');
    expect(perOrg.choose(ask(0.05))).toMatchObject({ model: 'big', reason: 'incumbent' });
    expect(perOrg.choose(ask(0.05, 'org-b'))).toMatchObject({ model: 'mid', reason: 'learned' });
    // org-a's is undecided (0.47 against 0.465, lower bound 0.457) but pinned: its interval (0.026
    // wide) is narrower than the tolerance, so judging it more is not worth it; org-b's is promoted.
    expect(perOrg.unsure({ ...ask(0.05), candidates: [mid] })).toBe(false);
    expect(perOrg.unsure({ ...ask(0.05, 'org-b'), candidates: [mid] })).toBe(false);
    const clamped = pairs(createChoiceLearner({ judgeError: () => 0.9 }));
    expect(clamped.choose(ask(0.5))).toMatchObject({ model: 'mid', reason: 'learned' }); // bar 0.5 - 0.1 x 0.5 = 0.45
  });

  it('is unsure while a judged pair may still change the choice', () => {
    expect(createChoiceLearner().unsure(ask(0.05))).toBe(true); // nothing sampled yet
    // small well below the bar (0.37 < 0.45), mid even but not yet proven: open for mid.
    const learner = judge(judge(undefined, 'small', 24, 56, 40), 'mid', 10, 10, 10);
    expect(learner.unsure(ask(0.05))).toBe(true);
    // mid proven: settled.
    judge(learner, 'mid', 90, 90, 90);
    expect(learner.unsure(ask(0.05))).toBe(false);
    // Only small, and its win rate below the bar: settled on the incumbent.
    expect(learner.unsure({ ...ask(0.05), candidates: [small] })).toBe(false);
  });

  it('needs confidence, not only a good mean: few samples or a wide interval keep the incumbent', () => {
    expect(judge(undefined, 'small', 6, 4).choose(ask(0.05)).model).toBe('big'); // 10 samples < minSamples
    expect(judge(undefined, 'small', 14, 16).choose(ask(0)).model).toBe('big'); // lower bound below 0.5
  });

  it('reads a pair from either side: the incumbent of one comparison is the candidate of the reverse', () => {
    const learner = judge(undefined, 'small', 30, 10);
    const reverse = learner.winRate({ orgId: org, taskKind: 'code', candidate: 'big', incumbent: 'small' });
    const forward = learner.winRate({ orgId: org, taskKind: 'code', candidate: 'small', incumbent: 'big' });
    expect(reverse.winRate).toBeCloseTo(1 - forward.winRate, 10);
  });

  it('keeps organisations and task kinds apart', () => {
    const learner = judge(undefined, 'small', 40, 0);
    expect(learner.choose(ask(0.05)).model).toBe('small');
    expect(learner.choose(ask(0.05, 'org-b')).model).toBe('big');
    expect(learner.choose({ ...ask(0.05), taskKind: 'math' }).model).toBe('big');
    expect(learner.knows('org-b', 'code')).toBe(false);
  });

  it('learns from feedback scores: a cheaper model scored as well as the incumbent is chosen, one scored worse is not', () => {
    const learner = createChoiceLearner();
    for (let i = 0; i < 100; i++) {
      learner.recordFeedback({ orgId: org, taskKind: 'code', model: 'big', score: 0.9 });
      learner.recordFeedback({ orgId: org, taskKind: 'code', model: 'mid', score: i % 10 === 0 ? 0.5 : 0.95 });
      learner.recordFeedback({ orgId: org, taskKind: 'code', model: 'small', score: i % 2 });
    }
    expect(learner.winRate({ orgId: org, taskKind: 'code', candidate: 'small', incumbent: 'big' }).feedback).toBe(100);
    expect(learner.choose(ask(0.1))).toMatchObject({ model: 'mid', reason: 'learned' });
  });

  it('explores a bounded share, only candidates not yet ruled out', () => {
    let draw = 0;
    const learner = createChoiceLearner({ explore: 0.5, random: () => (draw++ % 100) / 100 }); // clamped to 0.05
    judge(learner, 'small', 0, 30); // small ruled out
    const picks = Array.from({ length: 1000 }, () => learner.choose(ask(0.05)));
    const explored = picks.filter((p) => p.reason === 'explore');
    expect(explored.length).toBe(50);
    expect(new Set(explored.map((p) => p.model))).toEqual(new Set(['mid']));
  });

  it('refuses malformed records', () => {
    const learner = createChoiceLearner();
    expect(() => learner.recordJudgedPair({ orgId: org, taskKind: 'code', incumbent: 'a', candidate: 'a', verdict: 'tie' })).toThrow(RangeError);
    expect(() => learner.recordJudgedPair({ orgId: org, taskKind: 'code', incumbent: 'a', candidate: 'b', verdict: 'both' as Verdict })).toThrow(RangeError);
    expect(() => learner.recordFeedback({ orgId: org, taskKind: 'code', model: 'a', score: 1.5 })).toThrow(RangeError);
    expect(() => learner.recordFeedback({ orgId: '', taskKind: 'code', model: 'a', score: 1 })).toThrow(TypeError);
    expect(learner.updates()).toBe(0);
  });

  it('merges instances exactly: shared plus what each added since it synchronised', () => {
    const base = judge(undefined, 'small', 5, 5).serialize();
    const one = createChoiceLearner();
    one.load(base);
    judge(one, 'small', 10, 0);
    const two = createChoiceLearner();
    two.load(base);
    judge(two, 'mid', 3, 1);
    two.recordFeedback({ orgId: org, taskKind: 'code', model: 'mid', score: 1 });
    const merged = createChoiceLearner();
    merged.load(mergeChoiceSnapshots(one.serialize(), base, two.serialize()));
    expect(merged.winRate({ orgId: org, taskKind: 'code', candidate: 'small', incumbent: 'big' }).judged).toBe(20);
    expect(merged.winRate({ orgId: org, taskKind: 'code', candidate: 'mid', incumbent: 'big' }).judged).toBe(4);
    expect(merged.serialize().feedback).toEqual([[org, 'code', 'mid', 1, 1]]);
  });

  it('merges the kinds held up three ways: what an instance held or let go since it synchronised, over the shared set', () => {
    const row = (kind: string): [string, string, string, string] => [org, kind, 'small', 'big'];
    const base = { version: 1 as const, pairs: [], feedback: [], up: [row('a'), row('b')] };
    const shared = { ...base, up: [row('a'), row('b'), row('c')] };
    const mine = { ...base, up: [row('b'), row('d')] };
    expect(mergeChoiceSnapshots(shared, base, mine).up).toEqual([row('b'), row('c'), row('d')]);
    // A snapshot from before the hold (no `up`) reads as none held.
    expect(mergeChoiceSnapshots({ version: 1, pairs: [], feedback: [] }, { version: 1, pairs: [], feedback: [] }, mine).up).toEqual([row('b'), row('d')]);
    // Shared state an older instance wrote back (it drops `up`, as it knows no holds) during a rolling
    // upgrade: the holds are unknown there, not let go; this instance keeps what it held.
    expect(mergeChoiceSnapshots({ version: 1, pairs: [], feedback: [] }, base, mine).up).toEqual([row('b'), row('d')]);
  });

  it('refuses a snapshot of another shape', () => {
    expect(() => createChoiceLearner().load({ version: 2 })).toThrow(/version 1/);
    expect(() => createChoiceLearner().load({ version: 1, pairs: [['a', 'b', 'c', 'd', -1, 0, 0]], feedback: [] })).toThrow(/pairs/);
    expect(() => createChoiceLearner().load({ version: 1, pairs: [], feedback: [], up: [['a', 'b', 'c']] })).toThrow(/up/);
  });
});
