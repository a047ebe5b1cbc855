import { describe, expect, it } from 'vitest';
import { estimateTokens, tokensForChars } from './token-estimate.js';
import { tokenCostUsd } from './token-cost.js';

describe('token estimate and token cost', () => {
  it('counts every started 4 characters as a token', () => {
    expect([tokensForChars(0), tokensForChars(1), tokensForChars(4), tokensForChars(5)]).toEqual([0, 1, 1, 2]);
    expect(estimateTokens('Tell me about gateways')).toBe(6);
  });

  it('prices prompt tokens at the input price and completion tokens at the output price, per million', () => {
    const model = { inputPricePerMTok: 3, outputPricePerMTok: 15 };
    expect(tokenCostUsd(model, { promptTokens: 1_000_000, completionTokens: 200_000 })).toBe(6);
    expect(tokenCostUsd(model, { promptTokens: 1_000 })).toBe((1_000 * 3) / 1e6);
    expect(tokenCostUsd(model, { completionTokens: 7 })).toBe((7 * 15) / 1e6);
  });
});
