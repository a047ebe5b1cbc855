import type { ModelInfo } from './model.js';
import { providerBatchPriceFactors } from './models/batch-prices.js';

const tokenPrices = ['inputPricePerMTok', 'outputPricePerMTok', 'cachedInputPricePerMTok', 'cacheWritePricePerMTok', 'audioInputPricePerMTok'] as const;

/** The share of its interactive prices `model` costs through its provider's batch API; undefined when it has no batch price. */
export function batchPriceFactor(model: ModelInfo): number | undefined {
  return model.batchPriceFactor ?? providerBatchPriceFactors[model.provider];
}

/**
 * `model` at its batch prices: every token price times its batch factor (the model's
 * `batchPriceFactor`, else its provider's published one), so the one cost rule
 * (`computeCost`) bills a native batch line. Undefined when the model has no batch price.
 */
export function atBatchPrices(model: ModelInfo): ModelInfo | undefined {
  const factor = batchPriceFactor(model);
  if (factor === undefined) return undefined;
  const priced: ModelInfo = { ...model };
  for (const key of tokenPrices) {
    const price = model[key];
    if (price !== undefined) priced[key] = price * factor;
  }
  return priced;
}
