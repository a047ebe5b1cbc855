import type { ModelInfo } from '@svc/catalog';
import { type Caller, type ChatRequest, type IntelligenceMode, seededRandom } from '@svc/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DailyShadowBudget } from './daily-budget.js';
import type { ShadowSettings } from './settings.js';
import { SETTLED_PAIR_CAP, ShadowJudging } from './shadow-judging.js';
import type { ShadowOffer } from './shadow-ports.js';

const caller: Caller = {
  keyId: 'key_1',
  keyPrefix: 'sk-svc-abc',
  org: { id: 'org-a', name: 'a', plan: 'free', rpmLimit: null, tpmLimit: null, monthlyBudgetUsd: null, tokenQuota: null, defaultIntelligenceMode: null, memoryScope: 'end_user', createdAt: new Date() },
  scopes: new Set(),
};
const request: ChatRequest = { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }], stream: false, n: 1, includeUsage: false };
const served = { id: 'openai/gpt-4o' } as ModelInfo;
const offerIn = (mode: IntelligenceMode): ShadowOffer => ({ caller, requestId: 'req_1', mode, request, served, answer: 'hello', completionTokens: 1, taskKind: null });
const on: ShadowSettings = { enabled: true, sampleRate: 0, candidateModels: undefined, judgeModel: 'openai/gpt-4o-mini', dailyBudgetUsd: 1, judgeErrorRate: undefined, judgeError: { rate: 0.15, source: 'default', pairs: 0 }, cautiousStart: true };

function judging(settings: (orgId: string) => ShadowSettings | undefined | Promise<ShadowSettings | undefined>) {
  const models = { permitted: () => undefined, cheaperThan: () => [], pricierThan: () => [], call: () => Promise.reject(new Error('no call expected')) };
  const budget = new DailyShadowBudget({ consumeWindow: () => Promise.reject(new Error('no budget expected')) });
  return new ShadowJudging({ models, settings, budget, sink: { record: () => undefined }, onError: (error) => expect.fail(String(error)) });
}

afterEach(() => vi.restoreAllMocks());

describe('ShadowJudging.offer on the request path', () => {
  it('schedules nothing when the cached settings say off (absent, disabled or no budget) or the request is proxy mode', () => {
    const scheduled = vi.spyOn(globalThis, 'setImmediate');
    for (const settings of [undefined, { ...on, enabled: false }, { ...on, dailyBudgetUsd: 0 }]) {
      const shadow = judging(() => settings);
      expect(shadow.accepts('org-a', 'full')).toBe(false);
      shadow.offer(offerIn('full'));
    }
    const read = vi.fn(() => on);
    const proxy = judging(read);
    expect(proxy.accepts('org-a', 'proxy')).toBe(false);
    proxy.offer(offerIn('proxy'));
    expect(read).not.toHaveBeenCalled();
    expect(scheduled).not.toHaveBeenCalled();
  });

  it('considers the offer in a later macrotask when judging is on, or while the settings load', async () => {
    const scheduled = vi.spyOn(globalThis, 'setImmediate');
    for (const settings of [() => on, () => Promise.resolve(on), () => Promise.resolve(undefined)]) {
      const shadow = judging(settings);
      expect(shadow.accepts('org-a', 'full')).toBe(true);
      shadow.offer(offerIn('full'));
      await shadow.idle();
    }
    expect(scheduled).toHaveBeenCalledTimes(3);
  });
});

describe('ShadowJudging with a focus (the learner says where a pair can still change the choice)', () => {
  const judgeModel = { id: 'openai/gpt-4o-judge', inputPricePerMTok: 1, outputPricePerMTok: 1 } as ModelInfo;
  const cheap = { id: 'openai/gpt-4o-mini', inputPricePerMTok: 0.1, outputPricePerMTok: 0.1 } as ModelInfo;

  /**
   * `offers` requests, alternately of an open and a settled task kind (or one open in `openEvery`), at `rate`; the judged pairs
   * per task kind. The focus names every candidate open where `focus` says so, and counts as the
   * kind's judged pairs those the sink recorded so far (as the learner would).
   */
  async function judgedPerKind(rate: number, offers: number, focus?: (offer: ShadowOffer) => boolean, cap?: { settledPairCap: number; openEvery: number }) {
    const models = {
      permitted: (_: Caller, slug: string) => (slug === judgeModel.id ? judgeModel : undefined),
      cheaperThan: () => [cheap],
      pricierThan: () => [],
      call: () => Promise.resolve({ text: '{"winner":"tie"}', costUsd: 0 }),
    };
    const budget = new DailyShadowBudget({ consumeWindow: () => Promise.resolve({ admitted: true, count: 0 }) } as never);
    const judged: Record<string, number> = { open: 0, settled: 0 };
    const random = seededRandom(7);
    const focusOf = (open: (offer: ShadowOffer) => boolean) => (offer: ShadowOffer, candidates: readonly ModelInfo[]) => ({ open: open(offer) ? candidates : [], judged: judged[offer.taskKind ?? ''] ?? 0 });
    const shadow = new ShadowJudging({
      models,
      settings: () => ({ ...on, sampleRate: rate, judgeModel: judgeModel.id }),
      budget,
      sink: { record: (pair) => void judged[pair.taskKind]!++ },
      capacity: 10_000,
      random,
      focus: focus ? focusOf(focus) : undefined,
      settledPairCap: cap?.settledPairCap,
      onError: (error) => expect.fail(String(error)),
    });
    // One at a time, each judged before the next arrives (as requests spaced wider than a pair's calls).
    for (let i = 0; i < offers; i++) {
      shadow.offer({ ...offerIn('full'), requestId: `req_${i}`, taskKind: i % (cap?.openEvery ?? 2) === 0 ? 'open' : 'settled' });
      await shadow.idle();
    }
    return { judged, stats: shadow.stats() };
  }

  it('spends the sample rate where the choice is open, never more than the rate', async () => {
    const { judged, stats } = await judgedPerKind(0.1, 4000, (offer) => offer.taskKind === 'open');
    const total = judged['open']! + judged['settled']!;
    expect(total).toBeLessThanOrEqual(0.1 * 4000 + 20);
    expect(total).toBeGreaterThan(0.1 * 4000 * 0.9);
    // Uniform sampling would judge the two kinds alike (~200 each).
    expect(judged['open']).toBeGreaterThan(4 * judged['settled']!);
    expect(stats).toMatchObject({ sampledOpen: judged['open'], sampledSettled: judged['settled'] });
  });

  it('judges where every choice is settled at a quarter of the rate (to notice a change)', async () => {
    const { judged } = await judgedPerKind(0.1, 4000, () => false);
    expect(judged['open']! + judged['settled']!).toBeGreaterThan(0.025 * 4000 * 0.6);
    expect(judged['open']! + judged['settled']!).toBeLessThan(0.025 * 4000 * 1.6);
  });

  it('judges a settled task kind no more once it has the capped pairs; the open kind is judged as before', async () => {
    // One request in fifty of the open kind: the settled kind is offered the credit the open one leaves.
    const isOpen = (offer: ShadowOffer) => offer.taskKind === 'open';
    const uncapped = await judgedPerKind(0.1, 4000, isOpen, { settledPairCap: Number.POSITIVE_INFINITY, openEvery: 50 });
    expect(uncapped.judged['settled']).toBeGreaterThan(30);
    const { judged, stats } = await judgedPerKind(0.1, 4000, isOpen, { settledPairCap: 10, openEvery: 50 });
    expect(judged['settled']).toBe(10);
    expect(stats.skipped['settled_judged_enough']).toBeGreaterThan(0);
    // The open kind loses nothing to the cap (judged on each of its 80 requests but the first, offered before any credit).
    expect(judged['open']).toBe(79);
    expect(uncapped.judged['open']).toBe(79);
  });

  it('judges nothing more where every choice is settled with the pairs of the default cap', async () => {
    const { judged } = await judgedPerKind(0.5, 4000, () => false);
    expect(judged).toEqual({ open: SETTLED_PAIR_CAP, settled: SETTLED_PAIR_CAP });
  });

  it('without a focus, draws each request at the rate', async () => {
    const { judged } = await judgedPerKind(0.1, 4000);
    expect(Math.abs(judged['open']! - judged['settled']!)).toBeLessThan(60);
    expect(judged['open']! + judged['settled']!).toBeGreaterThan(0.1 * 4000 * 0.8);
  });
});

describe('ShadowJudging default candidates', () => {
  it('tries the closest pricier model of the pool beside the three closest cheaper ones, so a cheap route can be judged for a move up', async () => {
    const priced = (id: string, price: number) => ({ id, inputPricePerMTok: price, outputPricePerMTok: price }) as ModelInfo;
    const judgeModel = priced('openai/judge', 1);
    const cheaper = [priced('c1', 0.5), priced('c2', 0.4), priced('c3', 0.3), priced('c4', 0.2)];
    const pricier = [priced('p1', 2), priced('p2', 5)];
    const tried = new Set<string>();
    const shadow = new ShadowJudging({
      models: { permitted: (_: Caller, slug: string) => (slug === judgeModel.id ? judgeModel : undefined), cheaperThan: () => cheaper, pricierThan: () => pricier, call: () => Promise.resolve({ text: '{"winner":"tie"}', costUsd: 0 }) },
      settings: () => ({ ...on, sampleRate: 1, judgeModel: judgeModel.id }),
      budget: new DailyShadowBudget({ consumeWindow: () => Promise.resolve({ admitted: true, count: 0 }) } as never),
      sink: { record: (pair) => void tried.add(pair.candidate) },
      random: seededRandom(3),
      onError: (error) => expect.fail(String(error)),
    });
    for (let i = 0; i < 200; i++) {
      shadow.offer({ ...offerIn('full'), requestId: `req_${i}` });
      await shadow.idle();
    }
    expect([...tried].sort()).toEqual(['c1', 'c2', 'c3', 'p1']);
  });
});
