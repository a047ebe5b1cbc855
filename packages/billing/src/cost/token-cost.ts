import type { ModelInfo } from '@svc/catalog';
import { perMillion } from './usd.js';

/**
 * USD for `promptTokens` at the model's input price plus `completionTokens` at its output price
 * (both USD per million tokens; an omitted count is 0); unrounded. Estimates and meters use it;
 * an answer's bill is {@link computeCost}, which also prices cached and audio tokens.
 */
export function tokenCostUsd(model: Pick<ModelInfo, 'inputPricePerMTok' | 'outputPricePerMTok'>, tokens: { promptTokens?: number; completionTokens?: number }): number {
  return perMillion((tokens.promptTokens ?? 0) * model.inputPricePerMTok + (tokens.completionTokens ?? 0) * model.outputPricePerMTok);
}
