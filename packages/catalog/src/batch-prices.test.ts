import { describe, expect, it } from 'vitest';
import { atBatchPrices, batchPriceFactor } from './batch-prices.js';
import { builtInModels } from './models/index.js';
import { modelOverrides } from './model-entry.js';
import type { ModelInfo } from './model.js';
import { validateModel } from './validate.js';

const model = (id: string): ModelInfo => {
  const found = builtInModels.find((entry) => entry.id === id);
  if (!found) throw new Error(`no ${id}`);
  return found;
};

describe('batch prices', () => {
  it('are half the interactive prices for OpenAI and Anthropic models, cache prices included', () => {
    const claude = model('anthropic/claude-fable-5-1');
    const batch = atBatchPrices(claude)!;
    expect([batch.inputPricePerMTok, batch.outputPricePerMTok, batch.cachedInputPricePerMTok, batch.cacheWritePricePerMTok]).toEqual([5, 25, 0.125, 6.25]);
    expect(atBatchPrices(model('openai/gpt-6.1-sol'))).toMatchObject({ inputPricePerMTok: 1, outputPricePerMTok: 5, cachedInputPricePerMTok: 0.05 });
  });

  it('are none for a provider without a batch API the gateway submits to', () => {
    const gemini = builtInModels.find((entry) => entry.provider === 'gemini')!;
    expect(batchPriceFactor(gemini)).toBeUndefined();
    expect(atBatchPrices(gemini)).toBeUndefined();
  });

  it('follow a model’s own factor over its provider’s, and a config entry sets it', () => {
    const gpt = model('openai/gpt-6.1-sol');
    expect(atBatchPrices({ ...gpt, batchPriceFactor: 0.25 })?.inputPricePerMTok).toBe(0.5);
    const [override] = modelOverrides([{ id: gpt.id, batch_price_factor: 0.4 }], { get: () => gpt }, {});
    expect(override?.batchPriceFactor).toBe(0.4);
    expect(() => validateModel({ ...gpt, batchPriceFactor: 1.5 })).toThrow(/batchPriceFactor/);
  });
});
