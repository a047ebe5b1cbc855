import { createMemoryKv } from '@svc/kv';
import { createRouter } from '@svc/router';
import { describe, expect, it } from 'vitest';
import { RouterFeedback, SHARED_WEIGHTS_KEY, kvWeightStore } from './router-feedback.js';
import { catalog, request } from '../test/gateway-harness.js';

const tick = () => new Promise((resolve) => setImmediate(resolve));
const ask = (content: string) => request({ model: 'svc/auto', messages: [{ role: 'user', content }] });

describe('RouterFeedback', () => {
  it('learns off the response path, in the next macrotask', async () => {
    const router = createRouter({ catalog });
    const feedback = new RouterFeedback({ router, saveIntervalMs: 0 });
    const decision = router.route(ask('Write a haiku about autumn.'));
    const before = JSON.stringify(router.policy.serialize());
    feedback.record({ decision, success: true });
    expect(feedback.stats()).toEqual({ learned: 0, pending: 1, dropped: 0 });
    await tick();
    expect(feedback.stats()).toEqual({ learned: 1, pending: 0, dropped: 0 });
    expect(JSON.stringify(router.policy.serialize())).not.toBe(before);
    await feedback.close();
  });

  it('persists the learned weights through the kv, so a restarted router starts from them', async () => {
    const kv = createMemoryKv();
    const router = createRouter({ catalog, state: { weights: kvWeightStore(kv) } });
    const feedback = new RouterFeedback({ router, saveIntervalMs: 0 });
    for (let i = 0; i < 20; i++) feedback.record({ decision: router.route(ask(`Fix this bug number ${i} in my TypeScript code: const x: number = 'a';`)), success: i % 3 !== 0 });
    await feedback.close();
    expect(await kv.get('svc:router:weights')).not.toBeNull();
    const restarted = createRouter({ catalog, state: { weights: kvWeightStore(kv) } });
    await new RouterFeedback({ router: restarted, saveIntervalMs: 0 }).restore();
    expect(restarted.policy.serialize()).toEqual(router.policy.serialize());
  });

  it("starts an upgraded deployment from the weights an earlier release shared, then keeps its own", async () => {
    const kv = createMemoryKv();
    const earlier = createRouter({ catalog, state: { weights: kvWeightStore(kv) } });
    const feedback = new RouterFeedback({ router: earlier, saveIntervalMs: 0 });
    for (let i = 0; i < 20; i++) feedback.record({ decision: earlier.route(ask(`Fix this bug number ${i} in my TypeScript code: const x: number = 'a';`)), success: i % 3 !== 0 });
    await feedback.close();
    const shared = await kv.get(SHARED_WEIGHTS_KEY);
    const upgraded = createRouter({ catalog, state: { weights: kvWeightStore(kv, 'svc:store-a:router:weights', SHARED_WEIGHTS_KEY) } });
    const own = new RouterFeedback({ router: upgraded, saveIntervalMs: 0 });
    await own.restore();
    expect(upgraded.policy.serialize()).toEqual(earlier.policy.serialize());
    own.record({ decision: upgraded.route(ask('Write a haiku about autumn.')), success: true });
    await own.close();
    expect(await kv.get('svc:store-a:router:weights')).not.toBeNull();
    expect(await kv.get(SHARED_WEIGHTS_KEY)).toBe(shared);
    // Without an earlier key (a new deployment) another deployment's weights are never read.
    const fresh = createRouter({ catalog, state: { weights: kvWeightStore(kv, 'svc:store-b:router:weights') } });
    await new RouterFeedback({ router: fresh, saveIntervalMs: 0 }).restore();
    expect(fresh.policy.serialize()).toEqual(createRouter({ catalog }).policy.serialize());
  });

  it('saves judged pairs and feedback scores through the kv, shared by two instances', async () => {
    const kv = createMemoryKv();
    const one = new RouterFeedback({ router: createRouter({ catalog, state: { weights: kvWeightStore(kv) } }), saveIntervalMs: 0 });
    const two = new RouterFeedback({ router: createRouter({ catalog, state: { weights: kvWeightStore(kv) } }), saveIntervalMs: 0 });
    const pair = { orgId: 'org-1', taskKind: 'code', incumbent: 'a/big', candidate: 'a/small', verdict: 'tie' } as const;
    for (let i = 0; i < 3; i++) one.recordJudgedPair(pair);
    two.recordJudgedPair({ ...pair, verdict: 'candidate' });
    two.recordFeedback({ orgId: 'org-1', taskKind: 'code', model: 'a/small', score: 1 });
    expect(() => two.recordFeedback({ orgId: 'org-1', taskKind: 'code', model: 'a/small', score: 2 })).toThrow(RangeError);
    await one.save();
    await two.save();
    await one.save(); // nothing new: takes up the other instance's counts
    for (const instance of [one, two]) {
      const estimate = instance.router.learner!.winRate({ orgId: 'org-1', taskKind: 'code', candidate: 'a/small', incumbent: 'a/big' });
      expect(estimate.judged).toBe(4);
      expect(instance.router.learner!.serialize().feedback).toEqual([['org-1', 'code', 'a/small', 1, 1]]);
    }
  });

  it('reports a snapshot it cannot load instead of failing the start', async () => {
    const kv = createMemoryKv();
    await kv.set('svc:router:weights', JSON.stringify({ policy: { version: 999, dimension: 3, arms: {}, models: {} } }));
    const errors: string[] = [];
    const router = createRouter({ catalog, state: { weights: kvWeightStore(kv) } });
    await new RouterFeedback({ router, saveIntervalMs: 0, onError: (_e, what) => errors.push(what) }).restore();
    expect(errors).toEqual(['router weights restore']);
  });

  it('saves only when something was learned, and retries a failed save', async () => {
    let saves = 0;
    let fail = true;
    const router = createRouter({
      catalog,
      state: {
        weights: {
          load: async () => undefined,
          save: async () => {
            saves++;
            if (fail) throw new Error('kv down');
          },
        },
      },
    });
    const feedback = new RouterFeedback({ router, saveIntervalMs: 0 });
    await feedback.save();
    expect(saves).toBe(0);
    feedback.record({ decision: router.route(ask('hi')), success: true });
    feedback.drain();
    await feedback.save();
    fail = false;
    await feedback.save();
    await feedback.save();
    expect(saves).toBe(2);
  });

  it('bounds what waits to be learned', () => {
    const router = createRouter({ catalog });
    const feedback = new RouterFeedback({ router, saveIntervalMs: 0, maxPending: 2 });
    const decision = router.route(ask('hi'));
    for (let i = 0; i < 5; i++) feedback.record({ decision, success: true });
    expect(feedback.stats()).toMatchObject({ pending: 2, dropped: 3 });
  });
});

describe('router weights shared by several instances', () => {
  const learn = (feedback: RouterFeedback, router: ReturnType<typeof createRouter>, prompts: string[], success: (i: number) => boolean) => {
    for (const [i, prompt] of prompts.entries()) feedback.record({ decision: router.route(ask(prompt)), success: success(i) });
    feedback.drain();
  };
  const samples = (router: ReturnType<typeof createRouter>) => router.policy.serialize().arms.map((arm) => arm.n);
  const code = Array.from({ length: 12 }, (_, i) => `Fix bug ${i} in this TypeScript: const x: number = 'a';`);
  const poems = Array.from({ length: 9 }, (_, i) => `Write a short poem number ${i} about the sea.`);

  it('merges what each instance learned instead of keeping the last writer’s, and each instance takes up the others’', async () => {
    const kv = createMemoryKv();
    const [a, b] = [createRouter({ catalog, state: { weights: kvWeightStore(kv) } }), createRouter({ catalog, state: { weights: kvWeightStore(kv) } })];
    const [fa, fb] = [new RouterFeedback({ router: a, saveIntervalMs: 0 }), new RouterFeedback({ router: b, saveIntervalMs: 0 })];
    // The same outcomes learned in one process: the reference.
    const single = createRouter({ catalog });
    const fs = new RouterFeedback({ router: single, saveIntervalMs: 0 });
    learn(fs, single, code, (i) => i % 3 !== 0);
    learn(fs, single, poems, (i) => i % 2 === 0);

    learn(fa, a, code, (i) => i % 3 !== 0);
    learn(fb, b, poems, (i) => i % 2 === 0);
    await fa.save();
    await fb.save(); // b's save finds a's learning in the store and adds its own
    await fa.save(); // a has nothing new: it takes up b's

    const total = samples(single);
    expect(total.reduce((x, y) => x + y, 0)).toBe(code.length + poems.length);
    expect(samples(a)).toEqual(total);
    expect(samples(b)).toEqual(total);
    // The LinUCB arms are sums over outcomes: merged, their request-feature part is what one
    // process would have learned (the last context entry is the success model's estimate at the
    // time, which depends on the order outcomes were learned in).
    const [merged, reference] = [a.policy.serialize().arms, single.policy.serialize().arms];
    for (const [t, arm] of merged.entries()) {
      for (const [i, x] of arm.b.slice(0, -1).entries()) expect(x).toBeCloseTo(reference[t]!.b[i]!, 9);
    }
    const restarted = createRouter({ catalog, state: { weights: kvWeightStore(kv) } });
    await new RouterFeedback({ router: restarted, saveIntervalMs: 0 }).restore();
    expect(samples(restarted)).toEqual(total);
  });

  it('keeps what an instance learns while its save waits on the store', async () => {
    const kv = createMemoryKv();
    const router = createRouter({ catalog, state: { weights: kvWeightStore(kv) } });
    const feedback = new RouterFeedback({ router, saveIntervalMs: 0 });
    learn(feedback, router, code.slice(0, 4), () => true);
    const saving = feedback.save();
    learn(feedback, router, poems.slice(0, 3), () => true); // learned during the save's await
    await saving;
    expect(samples(router).reduce((x, y) => x + y, 0)).toBe(7);
    await feedback.save(); // the three learned meanwhile are written now, once
    const restarted = createRouter({ catalog, state: { weights: kvWeightStore(kv) } });
    await new RouterFeedback({ router: restarted, saveIntervalMs: 0 }).restore();
    expect(samples(restarted).reduce((x, y) => x + y, 0)).toBe(7);
  });

  it('lets one instance save at a time; the other retries at its next save with nothing lost', async () => {
    const kv = createMemoryKv();
    await kv.setIfAbsent('svc:router:weights:lock', 'another instance', { ttlMs: 10_000 });
    const errors: string[] = [];
    const router = createRouter({ catalog, state: { weights: kvWeightStore(kv) } });
    const feedback = new RouterFeedback({ router, saveIntervalMs: 0, onError: (_e, what) => errors.push(what) });
    learn(feedback, router, code.slice(0, 5), () => true);
    await feedback.save();
    expect(errors).toEqual(['router weights save']);
    expect(await kv.get('svc:router:weights')).toBeNull();
    await kv.delete('svc:router:weights:lock');
    await feedback.save();
    expect(await kv.get('svc:router:weights:lock')).toBeNull();
    const restarted = createRouter({ catalog, state: { weights: kvWeightStore(kv) } });
    await new RouterFeedback({ router: restarted, saveIntervalMs: 0 }).restore();
    expect(samples(restarted).reduce((x, y) => x + y, 0)).toBe(5);
  });
});
