import { describe, expect, it } from 'vitest';
import { createJudgingOrder } from './judging-order.js';
import { type ChoiceLearner, type ChoiceRequest, createChoiceLearner } from './learner.js';

const strong = { id: 'strong', cost: 10 };
const cheap = { id: 'cheap', cost: 1 };
const onCheap = (taskKind: string, orgId = 'org-a'): ChoiceRequest => ({ orgId, taskKind, incumbent: cheap, candidates: [strong], tolerance: 0.05 });
const onStrong = (taskKind: string): ChoiceRequest => ({ ...onCheap(taskKind), incumbent: strong, candidates: [cheap] });

/** `wins`, `losses`, `ties` of the strong model against the cheap one on `taskKind`. */
function record(learner: ChoiceLearner, taskKind: string, wins: number, losses: number, ties: number): void {
  const tally = [['candidate', wins], ['incumbent', losses], ['tie', ties]] as const;
  for (const [verdict, n] of tally) for (let i = 0; i < n; i++) learner.recordJudgedPair({ orgId: 'org-a', taskKind, incumbent: 'cheap', candidate: 'strong', verdict });
}

const show = (order: ReturnType<typeof createJudgingOrder>, request: ChoiceRequest, times: number) => {
  for (let i = 0; i < times; i++) order.seen(request);
};

describe('the judging order (issue 28): where the next judged pair goes first', () => {
  it('ranks first the open move up with the most requests on the cheap model times the pricier one’s lead read optimistically (its upper bound over 0.5)', () => {
    const learner = createChoiceLearner({ judgeError: 0.15 });
    record(learner, 'analysis', 30, 20, 50); // lead 0.05, open
    record(learner, 'math', 16, 8, 16); // lead 0.10, open (40 pairs: not yet credible at UP_ALPHA)
    const order = createJudgingOrder(learner);
    show(order, onCheap('analysis'), 300);
    show(order, onCheap('math'), 100);
    expect(order.first(onCheap('analysis'))).toBe(true); // 300 x (0.64 - 0.5) before 100 x (0.75 - 0.5)
    expect(order.first(onCheap('math'))).toBe(false);
    expect(order.first(onStrong('analysis'))).toBe(true); // a pair on the kind counts for its move up whoever served it
    show(order, onCheap('math'), 300);
    expect(order.first(onCheap('math'))).toBe(true);
    expect(order.first(onCheap('analysis'))).toBe(false);
  });

  it('puts a kind with only a move down open after any open move up, and a settled kind last', () => {
    const learner = createChoiceLearner({ judgeError: 0.15 });
    record(learner, 'writing', 16, 8, 16); // open up
    record(learner, 'chat', 0, 0, 2000); // even and pinned: settled
    const order = createJudgingOrder(learner);
    show(order, onCheap('writing'), 10);
    show(order, onStrong('code'), 5000); // nothing judged: the move down is open, no cheap incumbent seen
    show(order, onStrong('chat'), 9000);
    expect(order.first(onCheap('writing'))).toBe(true);
    expect(order.first(onStrong('code'))).toBe(false);
    expect(order.first(onStrong('chat'))).toBe(false);
    const noUp = createJudgingOrder(learner);
    show(noUp, onStrong('code'), 5);
    show(noUp, onStrong('chat'), 9000);
    expect(noUp.first(onStrong('code'))).toBe(true);
    expect(noUp.first(onStrong('chat'))).toBe(false);
  });

  it("ranks a kind in its cautious start by the router's cheap choices (the library's sampler) but, fed the served model as the gateway's is, by the few the cheap model served before its start", () => {
    const learner = createChoiceLearner({ judgeError: 0.15, cautiousStart: true });
    record(learner, 'analysis', 30, 20, 50); // lead 0.05, in its start: the pricier model serves the router's cheap choices
    record(learner, 'math', 16, 8, 16); // lead 0.10
    expect(learner.choose(onCheap('analysis')).reason).toBe('start');
    const library = createJudgingOrder(learner);
    const gateway = createJudgingOrder(learner);
    for (const order of [library, gateway]) {
      show(order, onCheap('analysis'), 10); // served by the cheap model before its first pair
      show(order, onCheap('math'), 100);
    }
    show(library, onCheap('analysis'), 300); // the router's cheap choice, whatever served it
    show(gateway, onStrong('analysis'), 300); // the model that served it (learnerOrder takes offer.served)
    expect(library.first(onCheap('analysis'))).toBe(true); // 310 x 0.05 before 100 x 0.10
    expect(gateway.first(onStrong('analysis'))).toBe(false); // 10 x 0.05: the 300 count for no move up
    expect(gateway.first(onCheap('math'))).toBe(true);
  });

  it('ranks a kind read even on a few dozen pairs before one read a little better on many: its priority falls as its interval narrows, not as its reading dips', () => {
    const learner = createChoiceLearner({ judgeError: 0.15 });
    record(learner, 'analysis', 10, 10, 20); // read 0.50 on 40 pairs (upper bound 0.65): a 0.54 kind read on a chance dip looks like this
    record(learner, 'writing', 40, 28, 132); // read 0.53 on 200 pairs (upper bound 0.59)
    const order = createJudgingOrder(learner);
    show(order, onCheap('analysis'), 300);
    show(order, onCheap('writing'), 300);
    expect(order.first(onCheap('analysis'))).toBe(true); // 300 x 0.15 before 300 x 0.09 (by the reading, 300 x 0.005 after 300 x 0.03)
    expect(order.first(onCheap('writing'))).toBe(false);
  });

  it('ranks first a kind whose cheap incumbent was never judged against its pricier candidate (its first pair starts a cautious start), one pair a kind', () => {
    const learner = createChoiceLearner({ judgeError: 0.15, cautiousStart: true });
    record(learner, 'analysis', 30, 20, 50); // open: 300 x (0.64 - 0.5)
    const order = createJudgingOrder(learner);
    show(order, onCheap('analysis'), 300);
    show(order, onCheap('math'), 20); // never judged: 20 x 0.5 by its gain alone
    show(order, onCheap('law'), 10); // never judged, fewer requests
    expect(order.first(onCheap('math'))).toBe(true);
    expect(order.first(onCheap('law'))).toBe(false);
    expect(order.first(onCheap('analysis'))).toBe(false);
    record(learner, 'math', 0, 0, 1); // its first pair: math is in its start, ranked by its gain again
    expect(learner.choose(onCheap('math')).reason).toBe('start');
    expect(order.first(onCheap('law'))).toBe(true);
    record(learner, 'law', 0, 1, 0);
    expect(order.first(onCheap('analysis'))).toBe(true);
    expect(order.first(onCheap('math'))).toBe(false);
  });

  it('does not rank first a kind whose pricier candidate was settled by feedback alone: it is never judged, and would hold the first place for good', () => {
    const learner = createChoiceLearner({ judgeError: 0.15, cautiousStart: true });
    record(learner, 'analysis', 30, 20, 50);
    for (let i = 0; i < 40; i++) {
      learner.recordFeedback({ orgId: 'org-a', taskKind: 'law', model: 'cheap', score: 1 });
      learner.recordFeedback({ orgId: 'org-a', taskKind: 'law', model: 'strong', score: 0 });
    }
    expect(learner.unsure(onCheap('law'))).toBe(false);
    const order = createJudgingOrder(learner);
    show(order, onCheap('analysis'), 300);
    show(order, onCheap('law'), 400);
    expect(order.first(onCheap('analysis'))).toBe(true);
    expect(order.first(onCheap('law'))).toBe(false);
  });

  it('orders each organisation on its own, and a kind it has not seen is first', () => {
    const learner = createChoiceLearner({ judgeError: 0.15 });
    const order = createJudgingOrder(learner);
    show(order, onCheap('analysis'), 100);
    expect(order.first(onCheap('math', 'org-b'))).toBe(true);
    expect(order.first(onCheap('analysis'))).toBe(true);
  });
});
