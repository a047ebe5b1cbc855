import { perMinuteCost } from '@svc/billing';
import type { Exchange } from '../gateway.js';
import { type UnitStageDeps, recordUnitRow } from '../units/unit-stage.js';

/** The ledger's model and provider of the platform's voice fee. */
export const VOICE_FEE_MODEL = 'svc/voice-platform-fee';
export const VOICE_FEE_PROVIDER = 'svc';

/**
 * Characters of speech per second, to price synthesised audio by the minute without decoding it:
 * about 150 words a minute.
 */
export const SPOKEN_CHARS_PER_SECOND = 15;

/** Seconds of speech `characters` of text make, at `SPOKEN_CHARS_PER_SECOND`. */
export function spokenSeconds(characters: number): number {
  return characters / SPOKEN_CHARS_PER_SECOND;
}

/** The platform's per-minute fee on `seconds` of audio, billed by the started second. */
export interface VoiceFee {
  seconds: number;
  perMinuteUsd: number;
  usd: number;
}

export function voiceFee(seconds: number, perMinuteUsd: number): VoiceFee {
  return { seconds, perMinuteUsd, usd: perMinuteCost(seconds, perMinuteUsd) };
}

/**
 * The fee's own ledger row, `<request id>:platform_fee` (model `svc/voice-platform-fee`,
 * provider `svc`), beside the provider rows: pass-through cost and fee stay apart and auditable.
 * A zero fee writes nothing.
 */
export function recordVoiceFee(deps: Pick<UnitStageDeps, 'metrics' | 'learn'>, context: Exchange, fee: VoiceFee): void {
  if (fee.usd <= 0) return;
  recordUnitRow(deps, context, {
    requestId: `${context.requestId}:platform_fee`,
    model: VOICE_FEE_MODEL,
    provider: VOICE_FEE_PROVIDER,
    costUsd: fee.usd,
    promptTokens: 0,
    latencyMs: Math.round(performance.now() - context.startedAt),
  });
}

/** Adds USD amounts without float noise in the last digits (the ledger's precision). */
export function sumUsd(...amounts: number[]): number {
  let total = 0;
  for (const amount of amounts) total += amount;
  return Math.round(total * 1e10) / 1e10;
}
