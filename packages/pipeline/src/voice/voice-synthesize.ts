import type { IntelligenceMode } from '@svc/core';
import type { DecodedVoiceSynthesizeRequest } from '@svc/protocol';
import type { SpeechResult } from '@svc/providers';
import type { Exchange } from '../gateway.js';
import { admitUnits, orgProviders } from '../units/unit-stage.js';
import { recordVoiceFee, spokenSeconds, sumUsd, voiceFee } from './voice-billing.js';
import { chooseTtsModel } from '@svc/router';
import { planSynthesis } from './voice-models.js';
import { type VoiceCost, type VoiceDeps, recordProviderRow, releasedOnFailure, speakText, speakingCost, voiceHeaders } from './voice-steps.js';
import { requireAllowedModel } from '../chat/org-policy.js';

/** A `POST /v1/voice/synthesize` request, validated in shape (the model's own limits are checked here). */
export type VoiceSynthesizeRequest = DecodedVoiceSynthesizeRequest;

export interface VoiceSynthesis {
  /** The audio, streamed through from the provider, and its content type. */
  audio: SpeechResult;
  model: string;
  voice: string;
  outputFormat: string;
  mode: IntelligenceMode;
  cost: VoiceCost;
  headers: Record<string, string>;
}

/**
 * `POST /v1/voice/synthesize`: the named text-to-speech model, the voice, format and length
 * checked against its catalog voice spec (400 naming `voice`, `output_format` or `text`), admitted
 * with the per-character price plus the platform fee on the speech's estimated length
 * (`SPOKEN_CHARS_PER_SECOND`), and called with the organisation's own key first. Resolves once
 * the provider answered; the audio bytes are streamed by the caller. Ledger rows: the model's
 * cost (`<request id>`) and the fee (`<request id>:platform_fee`).
 */
export async function synthesizeVoice(deps: VoiceDeps, request: VoiceSynthesizeRequest, context: Exchange): Promise<VoiceSynthesis> {
  const { mode } = context;
  const model = requireAllowedModel(context.caller, chooseTtsModel(deps.catalog, request.model, undefined, 'model'));
  const plan = planSynthesis(model, request);
  const org = await orgProviders(deps, context.caller.org.id);
  const byok = org.ownKey(model.provider);
  const providerUsd = speakingCost(model, request.text);
  const fee = voiceFee(spokenSeconds(request.text.length), deps.voice.platformFeePerMinute);
  const reservation = await admitUnits(deps, context, { tokens: 0, costUsd: providerUsd + fee.usd });
  const audio = await releasedOnFailure(reservation, () => speakText(deps, org, model, plan, request.text, context.signal));
  const cost: VoiceCost = { providerUsd, platformFeeUsd: fee.usd, totalUsd: sumUsd(providerUsd, fee.usd), billedSeconds: fee.seconds };
  recordProviderRow(deps, context, model, providerUsd);
  recordVoiceFee(deps, context, fee);
  void reservation.settle({ actualTokens: 0, actualCostUsd: sumUsd(byok ? 0 : providerUsd, fee.usd) });
  const headers = voiceHeaders(context, mode, model, cost, reservation);
  headers['x-svc-voice-id'] = plan.voice;
  headers['x-svc-audio-format'] = plan.outputFormat;
  return { audio, model: model.id, voice: plan.voice, outputFormat: plan.outputFormat, mode, cost, headers };
}
