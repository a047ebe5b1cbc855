import type { ModelInfo } from '@svc/catalog';
import type { ShadowOffer } from '@svc/judging';
import { createChoiceLearner } from '@svc/router';
import { describe, expect, it } from 'vitest';
import { caller } from '../test/gateway-harness.js';
import { learnerFocus } from './shadow-focus.js';

const model = (id: string, price: number) => ({ id, inputPricePerMTok: price, outputPricePerMTok: price }) as ModelInfo;
const big = model('acme/big', 10);
const mid = model('acme/mid', 3);
const small = model('acme/small', 1);
const offer = (taskKind: string | null): ShadowOffer => ({
  caller,
  requestId: 'req_1',
  mode: 'full',
  request: { model: 'svc/auto', messages: [{ role: 'user', content: 'hi' }], stream: false, n: 1, includeUsage: false },
  served: big,
  answer: 'hello',
  completionTokens: 1,
  taskKind,
});

describe('learnerFocus', () => {
  it("names the candidates the learner is unsure about against the served model on the request's task kind", () => {
    const learner = createChoiceLearner();
    const judge = (candidate: string, verdict: 'candidate' | 'incumbent' | 'tie', n: number) => {
      for (let i = 0; i < n; i++) learner.recordJudgedPair({ orgId: caller.org.id, taskKind: 'code', incumbent: big.id, candidate, verdict });
    };
    const focus = learnerFocus(learner);
    expect(focus(offer('code'), [mid, small])).toEqual({ open: [mid, small], judged: 0 }); // nothing judged yet
    judge(small.id, 'incumbent', 60); // small is clearly worse: settled for it
    judge(mid.id, 'tie', 10); // mid even so far, not enough pairs: open
    expect(focus(offer('code'), [mid, small])).toEqual({ open: [mid], judged: 70 });
    expect(focus(offer('code'), [small])).toEqual({ open: [], judged: 60 }); // settled, with the pairs the cap reads
    expect(focus(offer('chat'), [mid, small])).toEqual({ open: [mid, small], judged: 0 }); // another task kind knows nothing yet
    expect(focus(offer(null), [mid, small])).toEqual({ open: [], judged: 0 }); // unclassified: teaches the learner nothing
    // A pricier model is the learner's choice only when judged better: open while it is short of pairs,
    // settled once the served model is proven within the tolerance of it (ties only).
    const dearer = model('acme/dearer', 20);
    expect(focus(offer('code'), [dearer])).toEqual({ open: [dearer], judged: 0 });
    judge(dearer.id, 'tie', 200);
    expect(focus(offer('code'), [dearer])).toEqual({ open: [], judged: 200 });
  });
});
