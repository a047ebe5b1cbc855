import { createCatalog } from '@svc/catalog';
import type { ModelInfo } from '@svc/catalog';
import { describe, expect, it } from 'vitest';
import { computeCost } from './cost.js';

const base = createCatalog().list({ kind: 'chat' })[0]!;
const model: ModelInfo = { ...base, inputPricePerMTok: 0.15, outputPricePerMTok: 0.6, cachedInputPricePerMTok: 0.075, cacheWritePricePerMTok: undefined };

describe('computeCost', () => {
  it('prices prompt and completion tokens per million, against the 2.50/10 baseline', () => {
    const cost = computeCost(model, { promptTokens: 1_000_000, completionTokens: 500_000, totalTokens: 1_500_000 });
    expect(cost.costUsd).toBeCloseTo(0.15 + 0.3, 10);
    expect(cost.baselineCostUsd).toBeCloseTo(2.5 + 5, 10);
    expect(cost.savingsUsd).toBeCloseTo(7.5 - 0.45, 10);
    expect(cost.savingsPct).toBeCloseTo(94, 2);
  });

  it('bills cached prompt tokens at the cached price', () => {
    const cost = computeCost(model, { promptTokens: 1_000_000, completionTokens: 0, totalTokens: 1_000_000, cachedPromptTokens: 400_000 });
    expect(cost.costUsd).toBeCloseTo(0.6 * 0.15 + 0.4 * 0.075, 10);
  });

  it('reports negative savings when the model costs more than the baseline', () => {
    const pricey: ModelInfo = { ...model, inputPricePerMTok: 15, outputPricePerMTok: 75 };
    const cost = computeCost(pricey, { promptTokens: 1000, completionTokens: 1000, totalTokens: 2000 });
    expect(cost.savingsUsd).toBeLessThan(0);
    expect(cost.savingsPct).toBeLessThan(0);
  });

  it('keeps zero-token answers at zero with a 0 % saving', () => {
    expect(computeCost(model, { promptTokens: 0, completionTokens: 0, totalTokens: 0 })).toEqual({ costUsd: 0, baselineCostUsd: 0, savingsUsd: 0, savingsPct: 0 });
  });
});
