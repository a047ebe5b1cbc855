import { createCatalog } from '@svc/catalog';
import { describe, expect, it } from 'vitest';
import labelled from './__fixtures__/labelled.json' with { type: 'json' };
import { createRouter } from './router.js';
import { ask } from './test/fixture-catalog.js';

/** The T1 share of the decisions on `prompts` that the router classifies expert. */
function expertT1Share(router: ReturnType<typeof createRouter>, prompts: readonly string[]): { share: number; experts: number } {
  let experts = 0;
  let t1 = 0;
  for (const p of prompts) {
    const d = router.route(ask(p));
    if (d.complexity !== 'expert') continue;
    experts++;
    if (d.tier === 'T1') t1++;
  }
  return { share: experts === 0 ? 0 : t1 / experts, experts };
}

describe('online learning cannot collapse', () => {
  it('10,000 mixed requests on a mock where every model succeeds instantly keep the T1 share of expert prompts within 10 points', () => {
    const prompts = labelled.map((l) => l.prompt);
    const catalog = createCatalog();
    const fresh = expertT1Share(createRouter({ catalog }), prompts);
    expect(fresh.experts).toBeGreaterThan(5);
    const router = createRouter({ catalog });
    for (let i = 0; i < 10_000; i++) {
      const decision = router.route(ask(prompts[i % prompts.length]!));
      // The mock: every model answers at once, successfully, for almost nothing.
      router.record({ decision, success: true, latencyMs: 5, costUsd: 1e-6, completionTokens: 10 });
    }
    const after = expertT1Share(router, prompts);
    console.log(`expert prompts: ${fresh.experts}; T1 share fresh ${fresh.share.toFixed(3)}, after 10,000 instant successes ${after.share.toFixed(3)}`);
    expect(Math.abs(after.share - fresh.share)).toBeLessThanOrEqual(0.1);
  }, 120_000);

  it('without the guard and the bounds, the same traffic is free to move the tier mix (what the guard is for)', () => {
    const prompts = labelled.map((l) => l.prompt);
    const router = createRouter({ catalog: createCatalog(), guard: false, maxOnlineShift: { up: 1, down: 1 } });
    for (let i = 0; i < 3_000; i++) router.record({ decision: router.route(ask(prompts[i % prompts.length]!)), success: true, latencyMs: 5, costUsd: 1e-6, completionTokens: 10 });
    const after = expertT1Share(router, prompts);
    console.log(`unguarded, unbounded: T1 share of expert prompts after 3,000 instant successes ${after.share.toFixed(3)}`);
    expect(after.share).toBeLessThan(0.9);
  }, 60_000);

  it("issue 18's case: 30 trivial successes do not move an expert prompt's tier", () => {
    const lanczos = 'Prove the convergence bound of the Lanczos algorithm and give a numerically stable implementation in Rust, with full reorthogonalisation, explaining every trade-off.';
    const router = createRouter({ catalog: createCatalog() });
    const before = router.route(ask(lanczos));
    for (let i = 0; i < 30; i++) router.record({ decision: router.route(ask('hi!')), success: true, latencyMs: 5, costUsd: 1e-6, completionTokens: 5 });
    const after = router.route(ask(lanczos));
    expect(after.tier).toBe(before.tier);
  });
});
