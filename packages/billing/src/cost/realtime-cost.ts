import type { ModelInfo } from '@svc/catalog';
import type { RealtimeUsage } from '@svc/core';
import { perMillion, roundUsd as round } from './usd.js';

/** What one realtime session is billed, USD; `costUsd` is the sum of the three parts. */
export interface RealtimeCost {
  /** Started minutes: a session of 61 s is 2 minutes; an opened session is at least 1. */
  minutes: number;
  /** The provider's reported tokens at the catalog's text and audio token prices. */
  tokenCostUsd: number;
  /** The provider's own per-minute price (`unitPrices.perMinute`), where it has one, x minutes. */
  providerMinuteCostUsd: number;
  /** The gateway's voice platform fee x minutes. */
  platformFeeUsd: number;
  costUsd: number;
}

const MINUTE_MS = 60_000;

/** Minutes billed for a session that lasted `durationMs`: every started minute, at least one. */
export function realtimeMinutes(durationMs: number): number {
  return Math.max(1, Math.ceil(Math.max(0, durationMs) / MINUTE_MS));
}

/** Total tokens of a realtime usage (input and output, text and audio). */
export function realtimeTokens(usage: RealtimeUsage): number {
  return usage.textInputTokens + usage.audioInputTokens + usage.textOutputTokens + usage.audioOutputTokens;
}

/**
 * The provider cost of realtime tokens: text at the model's token prices, audio at
 * `unitPrices.audio*PerMTok` (the text price when the catalog has no audio price). Cached
 * counts are part of the input counts and billed at their cached price.
 */
export function realtimeTokenCost(model: Pick<ModelInfo, 'inputPricePerMTok' | 'cachedInputPricePerMTok' | 'outputPricePerMTok' | 'unitPrices'>, usage: RealtimeUsage): number {
  const prices = model.unitPrices ?? {};
  const audioIn = prices.audioInputPerMTok ?? model.inputPricePerMTok;
  const cachedText = Math.min(usage.cachedTextInputTokens, usage.textInputTokens);
  const cachedAudio = Math.min(usage.cachedAudioInputTokens, usage.audioInputTokens);
  const micro =
    (usage.textInputTokens - cachedText) * model.inputPricePerMTok +
    cachedText * (model.cachedInputPricePerMTok ?? model.inputPricePerMTok) +
    (usage.audioInputTokens - cachedAudio) * audioIn +
    cachedAudio * (prices.cachedAudioInputPerMTok ?? audioIn) +
    usage.textOutputTokens * model.outputPricePerMTok +
    usage.audioOutputTokens * (prices.audioOutputPerMTok ?? model.outputPricePerMTok);
  return round(perMillion(micro));
}

/**
 * A realtime session's bill: its started minutes at the provider's per-minute price (if any)
 * plus the platform fee per minute, plus its reported tokens at the catalog's prices.
 */
export function realtimeCost(
  model: Pick<ModelInfo, 'inputPricePerMTok' | 'cachedInputPricePerMTok' | 'outputPricePerMTok' | 'unitPrices'>,
  session: { durationMs: number; usage: RealtimeUsage; platformFeePerMinute: number },
): RealtimeCost {
  const minutes = realtimeMinutes(session.durationMs);
  const tokenCostUsd = realtimeTokenCost(model, session.usage);
  const providerMinuteCostUsd = round(minutes * (model.unitPrices?.perMinute ?? 0));
  const platformFeeUsd = round(minutes * session.platformFeePerMinute);
  return { minutes, tokenCostUsd, providerMinuteCostUsd, platformFeeUsd, costUsd: round(tokenCostUsd + providerMinuteCostUsd + platformFeeUsd) };
}
