import { seededRandom } from '@svc/core';
import { describe, expect, it } from 'vitest';
import { type ChoiceLearner, type ChoiceLearnerOptions, START_PAIRS, UP_ALPHA, type Verdict, createChoiceLearner } from './learner.js';
import { mergeChoiceSnapshots } from './snapshot.js';

const org = 'org-a';
const strong = { id: 'strong', cost: 10 };
const cheap = { id: 'cheap', cost: 1 };
/** The router's cheap choice; the gateway's setting: tolerance 0.05, judge assumed wrong on 15% (the cheap model is plausibly within the tolerance once the strong one's upper bound at UP_ALPHA is at most 0.535). */
const onCheap = { orgId: org, taskKind: 'analysis', incumbent: cheap, candidates: [strong], tolerance: 0.05 };
const cautious: ChoiceLearnerOptions = { judgeError: 0.15, cautiousStart: true };
/** Streams of a look after every pair: ~15 s alone, up to a minute on the shared 2-core VM. */
const streamsTimeout = 120_000;

/** Records `n` pairs of the strong model (candidate) against the cheap one: it wins `win`, loses `loss` of them (shares), the rest tie. */
function record(learner: ChoiceLearner, n: number, win: number, loss: number, random: () => number): void {
  for (let i = 0; i < n; i++) {
    const draw = random();
    const verdict: Verdict = draw < win ? 'candidate' : draw < win + loss ? 'incumbent' : 'tie';
    learner.recordJudgedPair({ orgId: org, taskKind: 'analysis', incumbent: 'cheap', candidate: 'strong', verdict });
  }
}

/**
 * A stream of `max` pairs with a look after each: the first pair after which the cheap choice serves
 * again (Infinity if never), the last pair after which the start served (0 if never), and the last choice's reason.
 */
function startStream(win: number, loss: number, seed: number, max: number): { released: number; lastStart: number; last: string } {
  const learner = createChoiceLearner(cautious);
  const random = seededRandom(seed);
  let released = Number.POSITIVE_INFINITY;
  let lastStart = 0;
  let last = '';
  for (let i = 1; i <= max; i++) {
    record(learner, 1, win, loss, random);
    const choice = learner.choose(onCheap);
    last = choice.reason;
    if (choice.model === 'cheap') released = Math.min(released, i);
    if (choice.reason === 'start') lastStart = i;
  }
  return { released, lastStart, last };
}

describe('a cautious start: the cheap choice serves a kind only after START_PAIRS judged pairs, or a proven move up serves it (issue 28, 2026-12-06)', () => {
  it('serves the pricier model from the first judged pair, and is open for judging, where the off learner keeps the cheap guess', () => {
    const learner = createChoiceLearner(cautious);
    expect(learner.choose(onCheap)).toEqual({ model: 'cheap', reason: 'incumbent' }); // nothing judged: nothing known
    record(learner, 1, 0, 1, seededRandom(1)); // even a pair the cheap model won
    expect(learner.choose(onCheap)).toMatchObject({ model: 'strong', reason: 'start', estimate: { judged: 1 } });
    expect(learner.unsure(onCheap)).toBe(true);
    const off = createChoiceLearner({ judgeError: 0.15 });
    record(off, 1, 0, 1, seededRandom(1));
    expect(off.choose(onCheap)).toEqual({ model: 'cheap', reason: 'incumbent' });
  });

  it('never takes a kind to a pricier model nobody judged against the cheap choice', () => {
    const learner = createChoiceLearner(cautious);
    record(learner, 5, 0.3, 0.1, seededRandom(2));
    const other = { id: 'other', cost: 5 };
    expect(learner.choose({ ...onCheap, candidates: [other] })).toEqual({ model: 'cheap', reason: 'incumbent' });
    expect(learner.choose({ ...onCheap, candidates: [other, strong] })).toMatchObject({ model: 'strong', reason: 'start' });
  });

  it('ends an even kind\'s start (0.5, 65% ties) no sooner than START_PAIRS pairs and before twice that, mostly at START_PAIRS, and keeps the cheap model there', () => {
    const streams = Array.from({ length: 21 }, (_, seed) => startStream(0.175, 0.175, seed + 1, 800));
    // Every start is over by twice START_PAIRS; one that gave the kind back (not taken by a move up proven on a chance lead) did so at START_PAIRS or later.
    expect(Math.max(...streams.map((s) => s.lastStart))).toBeLessThan(2 * START_PAIRS);
    const given = streams.filter((s) => s.released === s.lastStart + 1).map((s) => s.released);
    expect(given.length).toBeGreaterThanOrEqual(21 * (1 - UP_ALPHA));
    expect(Math.min(...given)).toBeGreaterThanOrEqual(START_PAIRS);
    expect(given.filter((at) => at === START_PAIRS).length).toBeGreaterThanOrEqual(given.length / 2); // most read at or under 0.5, or plausible, at START_PAIRS
    // At the end the cheap model serves, or the kind moved up on a chance lead (the learned rule's own risk, at most UP_ALPHA of streams).
    expect(streams.filter((s) => s.last !== 'incumbent').length).toBeLessThanOrEqual(21 * UP_ALPHA);
    expect(streams.filter((s) => s.last === 'start').length).toBe(0);
  }, streamsTimeout);

  it("keeps MMLU's analysis (0.54, 65% ties) on the pricier model through its start, then on its move up, in most streams", () => {
    const learner = createChoiceLearner(cautious);
    const random = seededRandom(3);
    const reasons = new Set<string>();
    for (let i = 0; i < 400; i++) {
      record(learner, 1, 0.215, 0.135, random);
      reasons.add(learner.choose(onCheap).reason);
    }
    expect([...reasons]).toEqual(['start', 'learned']); // from the first pair to the start's end, then the move up, held
    expect(learner.unsure(onCheap)).toBe(false);
    const streams = Array.from({ length: 21 }, (_, seed) => startStream(0.215, 0.135, seed + 100, 400));
    // Never given back to the cheap model on a chance dip before START_PAIRS; up at the end in most.
    expect(streams.filter((s) => s.released < START_PAIRS).length).toBe(0);
    expect(streams.filter((s) => s.last === 'learned').length).toBeGreaterThanOrEqual(15);
  }, streamsTimeout);

  it('at START_PAIRS keeps a lead read above 0.5 with the cheap model not yet plausible (0.52) in its start, and ends it at twice START_PAIRS whatever the pairs say', () => {
    const learner = createChoiceLearner(cautious);
    // Per 100 pairs: the strong model wins 25, loses 21, ties 54 (0.52), interleaved: neither proven nor ruled out in 400 pairs.
    const verdictAt = (i: number): Verdict => (i % 100 < 25 ? 'candidate' : i % 100 < 46 ? 'incumbent' : 'tie');
    const order = Array.from({ length: 100 }, (_, i) => (i * 37) % 100);
    for (let i = 0; i < 2 * START_PAIRS - 1; i++) {
      learner.recordJudgedPair({ orgId: org, taskKind: 'analysis', incumbent: 'cheap', candidate: 'strong', verdict: verdictAt(order[i % 100]!) });
      expect(learner.choose(onCheap).reason).toBe('start');
    }
    expect(learner.winRate({ orgId: org, taskKind: 'analysis', candidate: 'strong', incumbent: 'cheap' }).winRate).toBeGreaterThan(0.5);
    learner.recordJudgedPair({ orgId: org, taskKind: 'analysis', incumbent: 'cheap', candidate: 'strong', verdict: 'tie' });
    expect(learner.choose(onCheap)).toEqual({ model: 'cheap', reason: 'incumbent' });
    expect(learner.serialize().startEnded).toHaveLength(1);
  });

  it('ends at START_PAIRS, not before, on the pricier model read at or under 0.5 or on the cheap model plausibly within the tolerance', () => {
    const at = (cheapWins: number, strongWins: number, ties: number) => {
      const learner = createChoiceLearner(cautious);
      learner.load({ version: 1, pairs: [[org, 'analysis', 'cheap', 'strong', cheapWins, strongWins, ties]], feedback: [] });
      return learner.choose(onCheap).reason;
    };
    // Read at 0.50 with an interval too wide to call the cheap model plausible (strong's upper bound at UP_ALPHA 0.553).
    expect(at(50, 49, 100)).toBe('start'); // 199 pairs, read under 0.5
    expect(at(50, 50, 100)).toBe('incumbent'); // 200
    // Read at 0.502, the cheap model plausible (strong's upper bound at UP_ALPHA 0.534, at most 0.535): the bound that ended the start before ends it only now.
    expect(at(20, 21, 158)).toBe('start'); // 199 pairs
    expect(at(20, 21, 159)).toBe('incumbent'); // 200
  });

  it("keeps the requests its start serves open for a sampler that asks about the served model, until the start ends", () => {
    const onStrong = { ...onCheap, incumbent: strong, candidates: [cheap] };
    const learner = createChoiceLearner(cautious);
    // The cheap model reads well below its bar (0.465): settled, were the kind not in its start.
    learner.load({ version: 1, pairs: [[org, 'analysis', 'cheap', 'strong', 22, 34, 104]], feedback: [] }); // 160 pairs: cheap 0.463, strong's bound at UP_ALPHA 0.492
    expect(learner.choose(onCheap).reason).toBe('start');
    expect(learner.unsure(onStrong)).toBe(true);
    const off = createChoiceLearner({ judgeError: 0.15 });
    off.load(learner.serialize());
    expect(off.unsure(onStrong)).toBe(false);
    learner.load({ version: 1, pairs: [[org, 'analysis', 'cheap', 'strong', 25, 40, 135]], feedback: [] }); // START_PAIRS reached: cheap 0.463, strong's bound 0.498, still not proven nor plausible
    expect(learner.choose(onCheap).reason).toBe('start');
    expect(learner.unsure(onStrong)).toBe(true);
    learner.load({ version: 1, pairs: [[org, 'analysis', 'cheap', 'strong', 50, 80, 270]], feedback: [] }); // twice START_PAIRS: the start is over (the move up is proven by now)
    expect(learner.choose(onCheap).reason).not.toBe('start');
    expect(learner.unsure(onStrong)).toBe(false);
  });

  it('serves a move up proven during the start as the start (not gated), open for judging, until the start ends; then the move up', () => {
    const onStrong = { ...onCheap, incumbent: strong, candidates: [cheap] };
    const learner = createChoiceLearner(cautious);
    learner.load({ version: 1, pairs: [[org, 'analysis', 'cheap', 'strong', 25, 55, 100]], feedback: [] }); // 180 pairs: strong 0.58, its move up proven at UP_ALPHA
    expect(learner.choose(onCheap)).toMatchObject({ model: 'strong', reason: 'start' });
    expect(learner.unsure(onCheap)).toBe(true);
    expect(learner.unsure(onStrong)).toBe(true);
    learner.load({ version: 1, pairs: [[org, 'analysis', 'cheap', 'strong', 50, 110, 240]], feedback: [] }); // twice START_PAIRS: the start is over
    expect(learner.choose(onCheap)).toMatchObject({ model: 'strong', reason: 'learned' });
    expect(learner.unsure(onStrong)).toBe(false);
  });

  it('leaves the strong model serving its own requests, and the learned rule alone, when the pairs favour the cheap one', () => {
    const learner = createChoiceLearner(cautious);
    record(learner, 300, 0.1, 0.3, seededRandom(4));
    expect(learner.choose(onCheap)).toEqual({ model: 'cheap', reason: 'incumbent' });
    expect(learner.choose({ ...onCheap, incumbent: strong, candidates: [cheap] })).toMatchObject({ model: 'cheap', reason: 'learned' });
  });

  it('keeps an ended start ended across a snapshot and across instances (the union), and refuses a malformed one', () => {
    // START_PAIRS even pairs (20 won, 20 lost, 160 tied): the cheap model plausibly within the tolerance, the start ends.
    const learner = createChoiceLearner(cautious);
    learner.load({ version: 1, pairs: [[org, 'analysis', 'cheap', 'strong', 20, 20, 160]], feedback: [] });
    expect(learner.choose(onCheap)).toEqual({ model: 'cheap', reason: 'incumbent' });
    const ended = learner.serialize();
    expect(ended.startEnded).toEqual([[org, 'analysis', 'cheap', 'strong']]);
    // Ten pairs the strong model wins lift it to 0.524 and its bound at UP_ALPHA back over 0.535: without the end kept, the start comes back.
    const lifted = (snapshot: typeof ended) => {
      const next = createChoiceLearner(cautious);
      next.load(snapshot);
      for (let i = 0; i < 10; i++) next.recordJudgedPair({ orgId: org, taskKind: 'analysis', incumbent: 'cheap', candidate: 'strong', verdict: 'candidate' });
      return next.choose(onCheap).reason;
    };
    expect(lifted(ended)).toBe('incumbent');
    expect(lifted({ ...ended, startEnded: [] })).toBe('start');
    const none = { version: 1 as const, pairs: [], feedback: [] };
    const row = (kind: string): [string, string, string, string] => [org, kind, 'cheap', 'strong'];
    expect(mergeChoiceSnapshots({ ...none, startEnded: [row('a')] }, none, { ...none, startEnded: [row('a'), row('b')] }).startEnded).toEqual([row('a'), row('b')]);
    expect(mergeChoiceSnapshots(none, none, { ...none, startEnded: [row('b')] }).startEnded).toEqual([row('b')]); // shared written back by an older build
    expect(() => createChoiceLearner().load({ ...none, startEnded: [['a', 'b']] })).toThrow(/startEnded/);
  });
  it("decides per organisation (a function): an organisation with it off is chosen for exactly as with it off, one with it on gets the start, from one learner", () => {
    const other = 'org-b';
    const offFor = new Set([other]);
    const learner = createChoiceLearner({ ...cautious, cautiousStart: (orgId) => !offFor.has(orgId) });
    const off = createChoiceLearner({ judgeError: 0.15 });
    const random = seededRandom(5);
    const onOther = { ...onCheap, orgId: other };
    const onOtherStrong = { ...onOther, incumbent: strong, candidates: [cheap] };
    // The same 400 pairs (0.54, 65% ties) for both organisations; the off learner gets the other's.
    for (let i = 0; i < 400; i++) {
      const draw = random();
      const verdict: Verdict = draw < 0.215 ? 'candidate' : draw < 0.35 ? 'incumbent' : 'tie';
      for (const [into, orgId] of [[learner, org], [learner, other], [off, other]] as const) into.recordJudgedPair({ orgId, taskKind: 'analysis', incumbent: 'cheap', candidate: 'strong', verdict });
      if (i === 0) expect(learner.choose(onCheap)).toMatchObject({ model: 'strong', reason: 'start' });
      expect(learner.choose(onOther)).toEqual(off.choose(onOther));
      expect(learner.unsure(onOther)).toBe(off.unsure(onOther));
      expect(learner.unsure(onOtherStrong)).toBe(off.unsure(onOtherStrong));
    }
    expect(learner.choose(onOther).model).toBe(off.choose(onOther).model);
  });

  it('keeps a start that ended while its organisation had it off ended when it is turned on again', () => {
    let on = false;
    const learner = createChoiceLearner({ ...cautious, cautiousStart: () => on });
    // Off: START_PAIRS even pairs, the cheap model plausibly within the tolerance at a choice (the start's end, recorded).
    learner.load({ version: 1, pairs: [[org, 'analysis', 'cheap', 'strong', 20, 20, 160]], feedback: [] });
    expect(learner.choose(onCheap)).toEqual({ model: 'cheap', reason: 'incumbent' });
    expect(learner.serialize().startEnded).toEqual([[org, 'analysis', 'cheap', 'strong']]);
    for (let i = 0; i < 10; i++) learner.recordJudgedPair({ orgId: org, taskKind: 'analysis', incumbent: 'cheap', candidate: 'strong', verdict: 'candidate' });
    on = true;
    expect(learner.choose(onCheap)).toEqual({ model: 'cheap', reason: 'incumbent' }); // as with it on all along
    // A kind whose start had not ended picks it up where its pairs are.
    learner.recordJudgedPair({ orgId: org, taskKind: 'coding', incumbent: 'cheap', candidate: 'strong', verdict: 'tie' });
    on = false;
    expect(learner.choose({ ...onCheap, taskKind: 'coding' })).toEqual({ model: 'cheap', reason: 'incumbent' });
    on = true;
    expect(learner.choose({ ...onCheap, taskKind: 'coding' })).toMatchObject({ model: 'strong', reason: 'start' });
    // A learner with it off for every organisation (false) records no ended start: its snapshot is as before.
    const plain = createChoiceLearner({ judgeError: 0.15 });
    plain.load({ version: 1, pairs: [[org, 'analysis', 'cheap', 'strong', 20, 20, 160]], feedback: [] });
    plain.choose(onCheap);
    expect(plain.serialize().startEnded ?? []).toEqual([]);
  });
});
