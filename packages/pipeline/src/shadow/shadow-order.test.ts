import type { ModelInfo } from '@svc/catalog';
import { seededRandom } from '@svc/core';
import { DailyShadowBudget, type ShadowOffer, type ShadowSettings, ShadowJudging } from '@svc/judging';
import { type ChoiceLearner, createChoiceLearner } from '@svc/router';
import { describe, expect, it } from 'vitest';
import { caller } from '../test/gateway-harness.js';
import { learnerFocus, learnerOrder } from './shadow-focus.js';

const model = (id: string, price: number) => ({ id, inputPricePerMTok: price, outputPricePerMTok: price }) as ModelInfo;
const big = model('acme/big', 10);
const small = model('acme/small', 1);
const judgeModel = model('acme/judge', 1);
const settings: ShadowSettings = { enabled: true, sampleRate: 0.1, candidateModels: undefined, judgeModel: judgeModel.id, dailyBudgetUsd: 1, judgeErrorRate: undefined, judgeError: { rate: 0.15, source: 'default', pairs: 0 }, cautiousStart: true };
const offer = (i: number, taskKind: string): ShadowOffer => ({
  caller,
  requestId: `req_${i}`,
  mode: 'full',
  request: { model: 'svc/auto', messages: [{ role: 'user', content: 'hi' }], stream: false, n: 1, includeUsage: false },
  served: small,
  answer: 'hello',
  completionTokens: 1,
  taskKind,
});

/** `n` verdicts of the pricier model against the cheap served one on `taskKind`. */
function record(learner: ChoiceLearner, taskKind: string, verdict: 'candidate' | 'incumbent' | 'tie', n: number): void {
  for (let i = 0; i < n; i++) learner.recordJudgedPair({ orgId: caller.org.id, taskKind, incumbent: small.id, candidate: big.id, verdict });
}

/** The gateway's sampler on the learner (focused, and ordered unless `ordered` is false); the offers judged, in order. */
function sampler(learner: ChoiceLearner, ordered: boolean) {
  const judged: string[] = [];
  const shadow = new ShadowJudging({
    models: {
      permitted: (_, slug) => (slug === judgeModel.id ? judgeModel : undefined),
      cheaperThan: () => [],
      pricierThan: () => [big],
      call: () => Promise.resolve({ text: '{"winner":"tie"}', costUsd: 0 }),
    },
    settings: () => settings,
    budget: new DailyShadowBudget({ consumeWindow: () => Promise.resolve({ admitted: true, count: 0 }) } as never),
    sink: { record: (pair) => void judged.push(pair.requestId) },
    capacity: 10_000,
    random: seededRandom(7),
    focus: learnerFocus(learner),
    order: ordered ? learnerOrder(learner) : undefined,
    onError: (error) => expect.fail(String(error)),
  });
  // One at a time, each judged before the next arrives.
  const send = async (from: number, to: number, kindOf: (i: number) => string) => {
    for (let i = from; i < to; i++) {
      shadow.offer(offer(i, kindOf(i)));
      await shadow.idle();
    }
  };
  return { judged, send, stats: () => shadow.stats() };
}

describe("the gateway's sampler in the router's judging order (issue 28)", () => {
  const learnerWithTwoKinds = () => {
    const learner = createChoiceLearner();
    record(learner, 'code', 'candidate', 16); // the pricier model leads on code: an open move up (40 pairs: not yet credible)
    record(learner, 'code', 'incumbent', 8);
    record(learner, 'code', 'tie', 16);
    record(learner, 'chat', 'incumbent', 60); // clearly worse on chat: settled (below the 100-pair cap)
    return learner;
  };
  /** One code request in twenty: at 0.1 per offer the open kind leaves a request's worth of credit unspent each twenty. */
  const codeEvery20 = (i: number) => (i % 20 === 0 ? 'code' : 'chat');
  const indexOf = (id: string) => Number(id.slice(4));

  it('spends the credit on the open move up, and on a settled kind only once the saved-up credit is full', async () => {
    const learner = learnerWithTwoKinds();
    const focus = learnerFocus(learner);
    expect(focus(offer(0, 'code'), [big]).open).toEqual([big]);
    expect(focus(offer(0, 'chat'), [big]).open).toEqual([]);
    const { judged, send, stats } = sampler(learner, true);
    await send(0, 2000, codeEvery20);
    const code = judged.filter((id) => indexOf(id) % 20 === 0);
    const chat = judged.filter((id) => indexOf(id) % 20 !== 0).map(indexOf);
    // Every code offer but the first (before any credit) is judged.
    expect(code.length).toBe(99);
    // The credit grows by one request's worth every twenty offers (2 earned, 1 spent): full at ~400 offers, and chat is never judged before.
    expect(chat.length).toBeGreaterThan(5);
    expect(Math.min(...chat)).toBeGreaterThanOrEqual(380);
    expect(judged.length).toBeLessThanOrEqual(0.1 * 2000);
    expect(stats()).toMatchObject({ sampledOpen: 99, sampledSettled: chat.length });
  });

  it('without the order (as before) spends the credit on the settled kind long before it is full', async () => {
    const { judged, send } = sampler(learnerWithTwoKinds(), false);
    await send(0, 2000, codeEvery20);
    const chat = judged.filter((id) => indexOf(id) % 20 !== 0).map(indexOf);
    expect(Math.min(...chat)).toBeLessThan(380);
  });
});
