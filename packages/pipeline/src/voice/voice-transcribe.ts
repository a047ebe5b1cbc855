import { audioCost } from '@svc/billing';
import type { IntelligenceMode } from '@svc/core';
import type { DecodedVoiceTranscribeRequest } from '@svc/protocol';
import type { Exchange } from '../gateway.js';
import { admitUnits, orgProviders } from '../units/unit-stage.js';
import { recordVoiceFee, sumUsd, voiceFee } from './voice-billing.js';
import { chooseSttModel } from '@svc/router';
import { type VoiceCost, type VoiceDeps, estimatedSeconds, hearSpeech, recordProviderRow, releasedOnFailure, voiceHeaders } from './voice-steps.js';
import { requireAllowedModel } from '../chat/org-policy.js';

/** A `POST /v1/voice/transcribe` request, validated. */
export type VoiceTranscribeRequest = DecodedVoiceTranscribeRequest;

export interface VoiceTranscription {
  text: string;
  /** ISO 639-1 as detected or asked; null when neither. */
  language: string | null;
  durationSeconds: number;
  /** True when the provider reported no duration and it was estimated from the file size. */
  durationEstimated: boolean;
  /** The slug of the model that transcribed. */
  model: string;
  /** True when the gateway chose the model (no `stt_model`). */
  modelChosen: boolean;
  mode: IntelligenceMode;
  cost: VoiceCost;
  /** Served with the organisation's own key: the provider cost is not charged to its budget. */
  byok: boolean;
  headers: Record<string, string>;
}

/**
 * `POST /v1/voice/transcribe`: the speech-to-text model (named, else by language), admitted
 * against the organisation's limits and budget with the estimated provider price plus the
 * platform fee, called with the organisation's own key first. Two ledger rows: the model's
 * pass-through cost (`<request id>`) and the fee (`<request id>:platform_fee`), both on the
 * reported duration (else the size-estimated one).
 *
 * @throws GatewayError 400 (`stt_model`, `language`, `X-Intelligence-Mode`); 429/402 from the
 *   limits; 500 when no model is configured; the provider's error.
 */
export async function transcribeVoice(deps: VoiceDeps, request: VoiceTranscribeRequest, context: Exchange): Promise<VoiceTranscription> {
  const { mode } = context;
  const model = requireAllowedModel(context.caller, chooseSttModel(deps.catalog, request.sttModel, request.language));
  const org = await orgProviders(deps, context.caller.org.id);
  const byok = org.ownKey(model.provider);
  const estimate = estimatedSeconds(request);
  const reservation = await admitUnits(deps, context, { tokens: 0, costUsd: audioCost(model, estimate) + voiceFee(estimate, deps.voice.platformFeePerMinute).usd });
  const heard = await releasedOnFailure(reservation, () => hearSpeech(deps, org, model, request, request.language, context.signal));
  const fee = voiceFee(heard.seconds, deps.voice.platformFeePerMinute);
  const cost: VoiceCost = { providerUsd: heard.costUsd, platformFeeUsd: fee.usd, totalUsd: sumUsd(heard.costUsd, fee.usd), billedSeconds: heard.seconds };
  recordProviderRow(deps, context, model, heard.costUsd);
  recordVoiceFee(deps, context, fee);
  // The organisation's own key is paid by the organisation; the platform fee is the platform's.
  void reservation.settle({ actualTokens: 0, actualCostUsd: sumUsd(byok ? 0 : heard.costUsd, fee.usd) });
  const headers = voiceHeaders(context, mode, model, cost, reservation);
  headers['x-svc-cost-estimated'] = String(heard.estimated);
  return {
    text: heard.recognition.text,
    language: heard.recognition.language ?? null,
    durationSeconds: heard.seconds,
    durationEstimated: heard.estimated,
    model: model.id,
    modelChosen: request.sttModel === undefined,
    mode,
    cost,
    byok,
    headers,
  };
}
