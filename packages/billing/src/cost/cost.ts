import type { ModelInfo } from '@svc/catalog';
import type { Usage } from '@svc/core';
import { tokenCostUsd } from './token-cost.js';
import { perMillion, roundUsd as round } from './usd.js';

/** The flagship reference the savings are measured against: USD per million tokens. */
export const baselinePrices = { inputPerMTok: 2.5, outputPerMTok: 10 } as const;

export interface Cost {
  costUsd: number;
  baselineCostUsd: number;
  savingsUsd: number;
  /** Savings as a percentage of the baseline; 0 when the baseline is 0. */
  savingsPct: number;
  /**
   * True when a call was made on a model the gateway has no price for (`ModelInfo.unpriced`): its
   * tokens are counted but `costUsd` holds only the priced calls' cost, so it must be reported as
   * unpriced (svc_metadata `cost_usd: null`, `x-svc-cost-usd: unpriced`, the ledger's `unpriced`).
   */
  unpriced?: true;
}

/** The baseline's prices in the catalog's shape. */
const baseline = { inputPricePerMTok: baselinePrices.inputPerMTok, outputPricePerMTok: baselinePrices.outputPerMTok };

/**
 * A one-hour prompt-cache write costs twice the model's input price (Anthropic's pricing page:
 * 5-minute writes 1.25x, 1-hour writes 2x base input; the catalog's `cacheWritePricePerMTok` is
 * the 5-minute price). Only Anthropic's usage reports one-hour writes.
 */
const ONE_HOUR_CACHE_WRITE_MULTIPLIER = 2;

/**
 * Cost of one answer from the catalog's prices and the provider's usage. Cached prompt
 * tokens, cache writes (5-minute and one-hour) and audio prompt tokens are billed at their own
 * prices when the catalog has them.
 */
export function computeCost(model: ModelInfo, usage: Usage): Cost {
  const cached = usage.cachedPromptTokens ?? 0;
  const written = usage.cacheWriteTokens ?? 0;
  const writtenForAnHour = Math.min(written, usage.cacheWrite1hTokens ?? 0);
  const fresh = Math.max(0, usage.promptTokens - cached - written);
  const audio = Math.min(fresh, usage.audioPromptTokens ?? 0);
  const input =
    (fresh - audio) * model.inputPricePerMTok +
    audio * (model.audioInputPricePerMTok ?? model.inputPricePerMTok) +
    cached * (model.cachedInputPricePerMTok ?? model.inputPricePerMTok) +
    (written - writtenForAnHour) * (model.cacheWritePricePerMTok ?? model.inputPricePerMTok) +
    writtenForAnHour * model.inputPricePerMTok * ONE_HOUR_CACHE_WRITE_MULTIPLIER;
  const costUsd = round(perMillion(input + usage.completionTokens * model.outputPricePerMTok));
  const baselineCostUsd = round(tokenCostUsd(baseline, usage));
  const savingsUsd = round(baselineCostUsd - costUsd);
  const savingsPct = baselineCostUsd > 0 ? Math.round((savingsUsd / baselineCostUsd) * 10_000) / 100 : 0;
  return model.unpriced === true ? { costUsd, baselineCostUsd, savingsUsd, savingsPct, unpriced: true } : { costUsd, baselineCostUsd, savingsUsd, savingsPct };
}

/** The cost of several calls billed as one answer (an answer and its re-ask). */
export function sumCosts(a: Cost, b: Cost): Cost {
  const costUsd = round(a.costUsd + b.costUsd);
  const baselineCostUsd = round(a.baselineCostUsd + b.baselineCostUsd);
  const savingsUsd = round(baselineCostUsd - costUsd);
  const sum: Cost = { costUsd, baselineCostUsd, savingsUsd, savingsPct: baselineCostUsd > 0 ? Math.round((savingsUsd / baselineCostUsd) * 10_000) / 100 : 0 };
  if (a.unpriced || b.unpriced) sum.unpriced = true;
  return sum;
}

/** A cache hit: nothing spent (spec: hits consume no tokens and cost nothing), the whole baseline saved. */
export function cacheHitCost(usage: Usage): Cost {
  const baselineCostUsd = round(tokenCostUsd(baseline, usage));
  return { costUsd: 0, baselineCostUsd, savingsUsd: baselineCostUsd, savingsPct: baselineCostUsd > 0 ? 100 : 0 };
}
