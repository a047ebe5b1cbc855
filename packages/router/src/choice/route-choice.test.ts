import { describe, expect, it } from 'vitest';
import { createRouter } from '../router.js';
import { createChoiceLearner } from './learner.js';
import type { WeightStore } from '../state.js';
import { ask, fixtureCatalog } from '../test/fixture-catalog.js';

/** The fixed-n (Wilson) rule these counts were written for; the default always-valid bound is tested in learner-sequence.test.ts. */
const wilsonLearner = () => createChoiceLearner({ bound: 'wilson' });

const prompt = 'Refactor this TypeScript function to remove the duplicated branches and add a unit test for it.';

/**
 * Judged pairs where `candidate` ties the router's own choice on every request of the prompt's
 * task family (400: the default gate's 95 % interval of an even win rate then clears 0.45).
 */
function teach(router: ReturnType<typeof createRouter>, orgId: string, candidate: string, n = 400) {
  const first = router.route(ask(prompt), { orgId });
  for (let i = 0; i < n; i++) router.recordJudgedPair({ orgId, taskKind: first.taskFamily, incumbent: first.model.id, candidate, verdict: 'tie' });
  return first;
}

/** An in-memory store with `update`, as the kv store behaves for one process. */
function memoryStore(): WeightStore {
  let value: unknown;
  return {
    load: async () => value,
    save: async (v) => {
      value = structuredClone(v);
    },
    update: async (merge) => {
      value = structuredClone(merge(value));
      return value;
    },
  };
}

describe('route() with the per-task learner', () => {
  it('puts the cheaper model judged as good first for that organisation only, and says why', () => {
    const router = createRouter({ catalog: fixtureCatalog(), learner: wilsonLearner() });
    const first = teach(router, 'org-a', 'acme/mini');
    expect(first.model.id).not.toBe('acme/mini');
    const learned = router.route(ask(prompt), { orgId: 'org-a' });
    expect(learned.model.id).toBe('acme/mini');
    expect(learned.learned).toMatchObject({ incumbent: first.model.id, model: 'acme/mini', reason: 'learned', samples: 400, gate: { status: 'promoted', reason: 'judged_not_worse', judgedWinRate: 0.5, judgedSamples: 400 } });
    expect(learned.waterfall.map((m) => m.id)).toContain(first.model.id);
    expect(router.route(ask(prompt), { orgId: 'org-b' }).model.id).toBe(first.model.id);
    expect(router.route(ask(prompt)).model.id).toBe(first.model.id);
  });

  it('follows the preference dial: dial 1 asks for a model at least as good, ties are not enough', () => {
    const router = createRouter({ catalog: fixtureCatalog(), learner: wilsonLearner() });
    const first = teach(router, 'org-a', 'acme/mini');
    const quality = ask(prompt, { routingHints: { preferenceDial: 1 } });
    expect(router.route(quality, { orgId: 'org-a' }).model.id).toBe(router.route(quality).model.id);
    expect(router.route(ask(prompt), { orgId: 'org-a', tolerance: 0 }).model.id).toBe(first.model.id);
  });

  it('applies a learned change only when the regression gate promotes it, and says why it refused one', () => {
    const router = createRouter({ catalog: fixtureCatalog(), learner: wilsonLearner() });
    // 300 ties: enough for the learner's one-sided bound (0.453 >= 0.45), not for the gate's 95 % interval (0.443).
    const first = teach(router, 'org-a', 'acme/mini', 300);
    const refused = router.route(ask(prompt), { orgId: 'org-a' });
    expect(refused.model.id).toBe(first.model.id);
    expect(refused.learned).toMatchObject({ model: 'acme/mini', gate: { status: 'refused', reason: 'insufficient_judged_pairs', judgedSamples: 300, limit: 0.45 } });
    const ungated = createRouter({ catalog: fixtureCatalog(), gate: false, learner: wilsonLearner() });
    teach(ungated, 'org-a', 'acme/mini', 300);
    const applied = ungated.route(ask(prompt), { orgId: 'org-a' });
    expect(applied.model.id).toBe('acme/mini');
    expect(applied.learned?.gate).toBeUndefined();
  });

  it('refuses a change the judged pairs say is worse, even when feedback alone would carry it', () => {
    const router = createRouter({ catalog: fixtureCatalog(), gate: { maxJudgedQualityDrop: 0.05, minJudgedPairs: 20 }, learner: wilsonLearner() });
    const first = router.route(ask(prompt), { orgId: 'org-a' });
    const taskKind = first.taskFamily;
    for (let i = 0; i < 30; i++) router.recordJudgedPair({ orgId: 'org-a', taskKind, incumbent: first.model.id, candidate: 'acme/mini', verdict: 'incumbent' });
    for (let i = 0; i < 2000; i++) {
      router.recordFeedback({ orgId: 'org-a', taskKind, model: 'acme/mini', score: 1 });
      router.recordFeedback({ orgId: 'org-a', taskKind, model: first.model.id, score: 0.5 });
    }
    const decision = router.route(ask(prompt), { orgId: 'org-a' });
    expect(decision.learned).toMatchObject({ reason: 'learned', model: 'acme/mini', gate: { status: 'refused', reason: 'judged_worse', judgedWinRate: 0 } });
    expect(decision.model.id).toBe(first.model.id);
  });

  it('moves a task kind the router sends to a cheap model up to a pricier one judged clearly better, through the gate', () => {
    const router = createRouter({ catalog: fixtureCatalog() });
    const simple = 'hi, what is the capital of France?';
    const first = router.route(ask(simple), { orgId: 'org-a' });
    expect(first.model.id).toBe(first.candidates[0]!.id);
    const pricier = first.candidates.find((c) => c.costUsd > first.candidates[0]!.costUsd)?.id ?? '';
    expect(pricier).not.toBe('');
    // The pricier model wins 30%, loses 10%, ties the rest of 600 pairs: win rate 0.6, its lower bound (0.562) clear of 0.5 + 0.05.
    const verdicts = ['candidate', 'candidate', 'candidate', 'incumbent', 'tie', 'tie', 'tie', 'tie', 'tie', 'tie'] as const;
    for (let i = 0; i < 600; i++) router.recordJudgedPair({ orgId: 'org-a', taskKind: first.taskFamily, incumbent: first.model.id, candidate: pricier, verdict: verdicts[i % 10]! });
    const up = router.route(ask(simple), { orgId: 'org-a' });
    expect(up.model.id).toBe(pricier);
    expect(up.learned).toMatchObject({ incumbent: first.model.id, model: pricier, reason: 'learned', samples: 600, gate: { status: 'promoted', reason: 'judged_not_worse', judgedWinRate: 0.6 } });
    expect(router.route(ask(simple), { orgId: 'org-b' }).model.id).toBe(first.model.id);
  });

  it('with a cautious start, serves the pricier model judged against a cheap choice from its first pair, not gated (no route change learned)', () => {
    const router = createRouter({ catalog: fixtureCatalog(), learner: createChoiceLearner({ cautiousStart: true }) });
    const simple = 'hi, what is the capital of France?';
    const first = router.route(ask(simple), { orgId: 'org-a' });
    const pricier = first.candidates.find((c) => c.costUsd > first.candidates[0]!.costUsd)?.id ?? '';
    router.recordJudgedPair({ orgId: 'org-a', taskKind: first.taskFamily, incumbent: first.model.id, candidate: pricier, verdict: 'tie' });
    const started = router.route(ask(simple), { orgId: 'org-a' });
    expect(started.model.id).toBe(pricier);
    expect(started.learned).toMatchObject({ incumbent: first.model.id, model: pricier, reason: 'start', winRate: 0.5, samples: 1 });
    expect(started.learned?.gate).toBeUndefined();
    expect(router.route(ask(simple), { orgId: 'org-b' }).model.id).toBe(first.model.id);
  });

  it('is off with learner: false', () => {
    const router = createRouter({ catalog: fixtureCatalog(), learner: false });
    const first = teach(router, 'org-a', 'acme/mini');
    expect(router.route(ask(prompt), { orgId: 'org-a' }).model.id).toBe(first.model.id);
  });

  it('learns across instances through the weight store, counts merged exactly', async () => {
    const weights = memoryStore();
    const one = createRouter({ catalog: fixtureCatalog(), state: { weights }, learner: wilsonLearner() });
    const two = createRouter({ catalog: fixtureCatalog(), state: { weights }, learner: wilsonLearner() });
    teach(one, 'org-a', 'acme/mini', 200);
    teach(two, 'org-a', 'acme/mini', 200);
    await one.save();
    await two.save();
    await one.restore();
    const first = one.route(ask(prompt)).model.id;
    const estimate = (r: typeof one) => r.learner!.winRate({ orgId: 'org-a', taskKind: r.route(ask(prompt)).taskFamily, candidate: 'acme/mini', incumbent: first });
    expect(estimate(one).judged).toBe(400);
    expect(estimate(two).judged).toBe(400);
    await one.save();
    await two.restore();
    expect(estimate(two).judged).toBe(400);
    expect(one.route(ask(prompt), { orgId: 'org-a' }).model.id).toBe('acme/mini');
  });
});
