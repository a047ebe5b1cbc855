import { speechCost } from '@svc/billing';
import { invalidRequest } from '@svc/core';
import type { SpeechRequest, SpeechResult } from '@svc/providers';
import type { Exchange } from '../gateway.js';
import { type UnitStageDeps, admitUnits, callUnit, orgProviders, recordUnitUsage } from './unit-stage.js';
import { checkVoice } from '../voice/voice-models.js';
import { requireAllowedModel } from '../chat/org-policy.js';
import { unitModel } from '@svc/router';

/** A speech request in canonical names; the protocol layer has checked the limits. */
export interface SpeakRequest extends Omit<SpeechRequest, 'model'> {
  /** A slug or bare upstream name of a speech model. */
  model: string;
}

export interface SpeakResponse {
  /** The audio, streamed through from the provider, and its content type. */
  audio: SpeechResult;
  /** The slug of the model that spoke. */
  model: string;
  costUsd: number;
  /** `x-svc-*` and `x-ratelimit-*` headers for the response. */
  headers: Record<string, string>;
}

/** Speech models that do not take `instructions` (OpenAI's first-generation tts-1 family). */
const noInstructions = /^tts-1(?:-hd)?(?:-\d+)?$/;

/**
 * The speech stage: resolve the speech model, admit against the organisation's limits with the
 * price of the input's characters (`unitPrices.perMChars`), call the provider (the
 * organisation's own key first) and queue the ledger row. Resolves once the provider answered;
 * the audio bytes are not read here.
 *
 * @throws GatewayError 404 `model_not_found` (param `model`); 400 (param `instructions`) on a
 *   model that takes none, (param `voice`) for a voice the model does not have; 500 `no_provider_configured`; 429/402 from the limits; the provider's error.
 */
export async function speak(deps: UnitStageDeps, request: SpeakRequest, context: Exchange): Promise<SpeakResponse> {
  const org = await orgProviders(deps, context.caller.org.id);
  const model = requireAllowedModel(context.caller, unitModel(deps.catalog, request.model, 'speech', 'speech'));
  if (request.instructions !== undefined && noInstructions.test(model.upstreamId)) {
    throw invalidRequest(`'instructions' is not supported by ${model.id}; use a model such as gpt-4o-mini-tts.`, 'instructions');
  }
  // The catalog knows each model's voices: a voice the model lacks is the caller's 400, not the upstream's.
  if (model.voice) checkVoice(model, request.voice);
  const costUsd = speechCost(model, request.input.length);
  const reservation = await admitUnits(deps, context, { tokens: 0, costUsd });
  let audio: SpeechResult;
  try {
    audio = await callUnit(deps, org, model, context.signal, (provider) => {
      const call = provider.speech?.bind(provider);
      return call && ((options) => call({ ...request, model: model.upstreamId }, options));
    });
  } catch (error) {
    void reservation.release();
    throw error;
  }
  const { headers } = recordUnitUsage(deps, context, reservation, { model, requestedModel: request.model, costUsd, byok: org.ownKey(model.provider), promptTokens: 0 });
  return { audio, model: model.id, costUsd, headers };
}
