import { describe, expect, it } from 'vitest';
import { createRouter } from '../router.js';
import type { WeightStore } from '../state.js';
import { ask, fixtureCatalog } from '../test/fixture-catalog.js';

const prompt = 'Refactor this TypeScript function to remove the duplicated branches and add a unit test for it.';

/** Judged pairs where `candidate` ties the router's own choice on every request of the prompt's task family. */
function teach(router: ReturnType<typeof createRouter>, orgId: string, candidate: string, n = 300) {
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
    const router = createRouter({ catalog: fixtureCatalog() });
    const first = teach(router, 'org-a', 'acme/mini');
    expect(first.model.id).not.toBe('acme/mini');
    const learned = router.route(ask(prompt), { orgId: 'org-a' });
    expect(learned.model.id).toBe('acme/mini');
    expect(learned.learned).toMatchObject({ incumbent: first.model.id, model: 'acme/mini', reason: 'learned', samples: 300 });
    expect(learned.waterfall.map((m) => m.id)).toContain(first.model.id);
    expect(router.route(ask(prompt), { orgId: 'org-b' }).model.id).toBe(first.model.id);
    expect(router.route(ask(prompt)).model.id).toBe(first.model.id);
  });

  it('follows the preference dial: dial 1 asks for a model at least as good, ties are not enough', () => {
    const router = createRouter({ catalog: fixtureCatalog() });
    const first = teach(router, 'org-a', 'acme/mini');
    const quality = ask(prompt, { routingHints: { preferenceDial: 1 } });
    expect(router.route(quality, { orgId: 'org-a' }).model.id).toBe(router.route(quality).model.id);
    expect(router.route(ask(prompt), { orgId: 'org-a', tolerance: 0 }).model.id).toBe(first.model.id);
  });

  it('is off with learner: false', () => {
    const router = createRouter({ catalog: fixtureCatalog(), learner: false });
    const first = teach(router, 'org-a', 'acme/mini');
    expect(router.route(ask(prompt), { orgId: 'org-a' }).model.id).toBe(first.model.id);
  });

  it('learns across instances through the weight store, counts merged exactly', async () => {
    const weights = memoryStore();
    const one = createRouter({ catalog: fixtureCatalog(), state: { weights } });
    const two = createRouter({ catalog: fixtureCatalog(), state: { weights } });
    teach(one, 'org-a', 'acme/mini', 150);
    teach(two, 'org-a', 'acme/mini', 150);
    await one.save();
    await two.save();
    await one.restore();
    const first = one.route(ask(prompt)).model.id;
    const estimate = (r: typeof one) => r.learner!.winRate({ orgId: 'org-a', taskKind: r.route(ask(prompt)).taskFamily, candidate: 'acme/mini', incumbent: first });
    expect(estimate(one).judged).toBe(300);
    expect(estimate(two).judged).toBe(300);
    await one.save();
    await two.restore();
    expect(estimate(two).judged).toBe(300);
    expect(one.route(ask(prompt), { orgId: 'org-a' }).model.id).toBe('acme/mini');
  });
});
