import { createMemoryKv } from '@svc/kv';
import { createRouter } from '@svc/router';
import { describe, expect, it } from 'vitest';
import { RouterFeedback, kvWeightStore } from './router-feedback.js';
import { catalog, request } from './test/gateway-harness.js';

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
