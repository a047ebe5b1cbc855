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
  it('ranks first the open move up with the most requests on the cheap model times the pricier one’s judged lead', () => {
    const learner = createChoiceLearner({ judgeError: 0.15 });
    record(learner, 'analysis', 30, 20, 50); // lead 0.05, open
    record(learner, 'math', 16, 8, 16); // lead 0.10, open (40 pairs: not yet credible at UP_ALPHA)
    const order = createJudgingOrder(learner);
    show(order, onCheap('analysis'), 300);
    show(order, onCheap('math'), 100);
    expect(order.first(onCheap('analysis'))).toBe(true); // 300 x 0.05 before 100 x 0.10
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

  it('orders each organisation on its own, and a kind it has not seen is first', () => {
    const learner = createChoiceLearner({ judgeError: 0.15 });
    const order = createJudgingOrder(learner);
    show(order, onCheap('analysis'), 100);
    expect(order.first(onCheap('math', 'org-b'))).toBe(true);
    expect(order.first(onCheap('analysis'))).toBe(true);
  });
});
