import { readFileSync } from 'node:fs';
import type { TaskComplexity } from '@svc/core';
import { describe, expect, it } from 'vitest';
import { classify } from './classify.js';
import { extractFeatures } from './features.js';
import { ask } from './test/fixture-catalog.js';
import type { TaskFamily } from './types.js';

interface Labelled {
  prompt: string;
  family: TaskFamily;
  complexity: TaskComplexity;
}

/**
 * A second hand-labelled set, written after the classifier was tuned on `labelled.json` and never
 * used to tune it: its figures are the honest estimate of accuracy on prompts it has not seen.
 */
const heldOut: Labelled[] = JSON.parse(readFileSync(new URL('./__fixtures__/held-out.json', import.meta.url), 'utf8'));
const order: readonly TaskComplexity[] = ['trivial', 'standard', 'complex', 'expert'];

describe('classify on the held-out labelled set', () => {
  const results = heldOut.map((item) => ({ item, got: classify(extractFeatures(ask(item.prompt))) }));
  const share = (ok: (r: (typeof results)[number]) => boolean) => results.filter(ok).length / results.length;

  it('names the task family of most unseen prompts', () => {
    const accuracy = share((r) => r.got.taskFamily === r.item.family);
    console.info(`held-out task family accuracy ${(accuracy * 100).toFixed(1)}% on ${heldOut.length} prompts`);
    // Measured 80.0 % when the set was written (the tuning set reads 93.8 %): a regression guard, not a target.
    expect(accuracy).toBeGreaterThanOrEqual(0.75);
  });

  it('gets the complexity class of unseen prompts right mostly', () => {
    const exact = share((r) => r.got.complexity === r.item.complexity);
    const within = share((r) => Math.abs(order.indexOf(r.got.complexity) - order.indexOf(r.item.complexity)) <= 1);
    console.info(`held-out complexity accuracy ${(exact * 100).toFixed(1)}%, within one class ${(within * 100).toFixed(1)}%`);
    // Measured 60.0 % exact and 100 % within one class when the set was written (tuning set: 76.8 %, 100 %).
    expect(exact).toBeGreaterThanOrEqual(0.55);
    expect(within).toBeGreaterThanOrEqual(0.95);
  });
});
