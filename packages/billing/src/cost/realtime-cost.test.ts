import { createCatalog } from '@svc/catalog';
import type { RealtimeUsage } from '@svc/core';
import { describe, expect, it } from 'vitest';
import { realtimeCost, realtimeMinutes, realtimeTokenCost } from './realtime-cost.js';

const none: RealtimeUsage = { textInputTokens: 0, cachedTextInputTokens: 0, audioInputTokens: 0, cachedAudioInputTokens: 0, textOutputTokens: 0, audioOutputTokens: 0 };
const gptRealtime = createCatalog().get('openai/gpt-realtime')!;

describe('realtimeMinutes', () => {
  it('counts every started minute, at least one', () => {
    expect(realtimeMinutes(0)).toBe(1);
    expect(realtimeMinutes(1)).toBe(1);
    expect(realtimeMinutes(60_000)).toBe(1);
    expect(realtimeMinutes(60_001)).toBe(2);
    expect(realtimeMinutes(125_000)).toBe(3);
    expect(realtimeMinutes(-5)).toBe(1);
  });
});

describe('realtimeTokenCost', () => {
  it('prices text and audio apart, cached input at its own price', () => {
    // gpt-realtime: text 4 / cached 0.4 / out 16; audio 32 / cached 0.4 / out 64 (USD per million).
    const usage: RealtimeUsage = { textInputTokens: 313, cachedTextInputTokens: 256, audioInputTokens: 476, cachedAudioInputTokens: 384, textOutputTokens: 9, audioOutputTokens: 23 };
    const expected = (57 * 4 + 256 * 0.4 + 92 * 32 + 384 * 0.4 + 9 * 16 + 23 * 64) / 1e6;
    expect(realtimeTokenCost(gptRealtime, usage)).toBeCloseTo(expected, 12);
  });

  it('falls back to the text price where the catalog has no audio price, and never bills more cached than input tokens', () => {
    const plain = { inputPricePerMTok: 1, outputPricePerMTok: 2 };
    expect(realtimeTokenCost(plain, { ...none, audioInputTokens: 1_000_000, audioOutputTokens: 1_000_000 })).toBe(3);
    expect(realtimeTokenCost(plain, { ...none, textInputTokens: 10, cachedTextInputTokens: 50 })).toBeCloseTo(10 / 1e6, 12);
  });
});

describe('realtimeCost', () => {
  it('bills the started minutes at the platform fee plus the reported tokens', () => {
    const cost = realtimeCost(gptRealtime, { durationMs: 61_000, usage: { ...none, audioInputTokens: 1000, audioOutputTokens: 500 }, platformFeePerMinute: 0.002 });
    expect(cost.minutes).toBe(2);
    expect(cost.platformFeeUsd).toBe(0.004);
    expect(cost.tokenCostUsd).toBeCloseTo((1000 * 32 + 500 * 64) / 1e6, 12);
    expect(cost.providerMinuteCostUsd).toBe(0);
    expect(cost.costUsd).toBeCloseTo(0.004 + 0.064, 12);
  });

  it('adds a per-minute provider price where the model has one', () => {
    const perMinute = { inputPricePerMTok: 0, outputPricePerMTok: 0, unitPrices: { perMinute: 0.05 } };
    expect(realtimeCost(perMinute, { durationMs: 150_000, usage: none, platformFeePerMinute: 0.01 })).toEqual({
      minutes: 3,
      tokenCostUsd: 0,
      providerMinuteCostUsd: 0.15,
      platformFeeUsd: 0.03,
      costUsd: 0.18,
    });
  });
});
