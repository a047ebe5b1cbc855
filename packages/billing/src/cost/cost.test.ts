import { createCatalog } from '@svc/catalog';
import type { ModelInfo } from '@svc/catalog';
import { describe, expect, it } from 'vitest';
import { cacheHitCost, computeCost, sumCosts } from './cost.js';

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

  it('bills audio prompt tokens at the audio input price, the rest of the prompt at the text price', () => {
    const audio: ModelInfo = { ...model, inputPricePerMTok: 2.5, audioInputPricePerMTok: 32, outputPricePerMTok: 10 };
    const cost = computeCost(audio, { promptTokens: 1_000, completionTokens: 100, totalTokens: 1_100, audioPromptTokens: 800 });
    expect(cost.costUsd).toBeCloseTo((200 * 2.5 + 800 * 32 + 100 * 10) / 1e6, 12);
    // Without an audio price, audio tokens cost what text tokens do.
    expect(computeCost(model, { promptTokens: 1_000, completionTokens: 0, totalTokens: 1_000, audioPromptTokens: 800 }).costUsd).toBeCloseTo(1_000 * 0.15 / 1e6, 12);
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

describe('cache-write and reasoning tokens', () => {
  it('bills cache writes at the cache-write price and reasoning tokens as completion tokens', () => {
    const writer: ModelInfo = { ...model, cacheWritePricePerMTok: 0.1875 };
    const cost = computeCost(writer, { promptTokens: 1_000_000, completionTokens: 200_000, totalTokens: 1_200_000, cacheWriteTokens: 500_000, reasoningTokens: 150_000 });
    // 500k fresh at 0.15, 500k written at 0.1875, 200k completion (reasoning included) at 0.6.
    expect(cost.costUsd).toBeCloseTo(0.075 + 0.09375 + 0.12, 10);
  });

  it('bills one-hour cache writes at twice the input price, the rest of the writes at the cache-write price', () => {
    const writer: ModelInfo = { ...model, cacheWritePricePerMTok: 0.1875 };
    const usage = { promptTokens: 1_000_000, completionTokens: 0, totalTokens: 1_000_000, cacheWriteTokens: 500_000, cacheWrite1hTokens: 200_000 };
    // 500k fresh at 0.15, 300k five-minute writes at 0.1875, 200k one-hour writes at 2 x 0.15.
    expect(computeCost(writer, usage).costUsd).toBeCloseTo(0.075 + 0.05625 + 0.06, 10);
    // A provider that reported more one-hour writes than writes is held to the writes.
    expect(computeCost(writer, { ...usage, cacheWrite1hTokens: 900_000 }).costUsd).toBeCloseTo(0.075 + 0.15, 10);
  });
});

describe('sums and cache hits', () => {
  it('adds an answer and its re-ask into one bill, savings recomputed', () => {
    const a = computeCost(model, { promptTokens: 1_000_000, completionTokens: 0, totalTokens: 1_000_000 });
    const b = computeCost(model, { promptTokens: 0, completionTokens: 1_000_000, totalTokens: 1_000_000 });
    const sum = sumCosts(a, b);
    expect(sum.costUsd).toBeCloseTo(0.75, 10);
    expect(sum.baselineCostUsd).toBeCloseTo(12.5, 10);
    expect(sum.savingsUsd).toBeCloseTo(11.75, 10);
    expect(sum.savingsPct).toBeCloseTo(94, 2);
  });

  it('marks a bill unpriced when any call was on a model without a price, never a silent zero', () => {
    const unpriced: ModelInfo = { ...model, inputPricePerMTok: 0, outputPricePerMTok: 0, unpriced: true };
    const usage = { promptTokens: 1_000, completionTokens: 100, totalTokens: 1_100 };
    expect(computeCost(unpriced, usage)).toMatchObject({ costUsd: 0, unpriced: true });
    expect(computeCost(model, usage).unpriced).toBeUndefined();
    expect(sumCosts(computeCost(model, usage), computeCost(unpriced, usage)).unpriced).toBe(true);
    expect(sumCosts(computeCost(model, usage), computeCost(model, usage)).unpriced).toBeUndefined();
  });

  it('makes a cache hit free with the whole baseline saved', () => {
    expect(cacheHitCost({ promptTokens: 1_000_000, completionTokens: 100_000, totalTokens: 1_100_000 })).toEqual({ costUsd: 0, baselineCostUsd: 3.5, savingsUsd: 3.5, savingsPct: 100 });
    expect(cacheHitCost({ promptTokens: 0, completionTokens: 0, totalTokens: 0 }).savingsPct).toBe(0);
  });
});
