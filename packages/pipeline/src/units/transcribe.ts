import { audioCost } from '@svc/billing';
import { invalidRequest } from '@svc/core';
import type { TranscriptionRequest, TranscriptionResult } from '@svc/providers';
import type { Exchange } from '../gateway.js';
import { type UnitStageDeps, admitUnits, callUnit, orgProviders, recordUnitUsage } from './unit-stage.js';
import { requireAllowedModel } from '../chat/org-policy.js';
import { unitModel } from '@svc/router';

/** A transcription or translation request; the protocol layer has checked the parts and the size. */
export interface TranscribeRequest extends Omit<TranscriptionRequest, 'model'> {
  /** A slug or bare upstream name of a transcription model. */
  model: string;
}

export interface TranscribeResponse {
  /** The upstream's answer (body and content type), passed through. */
  transcription: TranscriptionResult;
  costUsd: number;
  /** True when the duration was estimated from the file size (no `verbose_json` duration). */
  costEstimated: boolean;
  /** `x-svc-*` and `x-ratelimit-*` headers, `x-svc-cost-estimated` among them. */
  headers: Record<string, string>;
}

/**
 * Bytes per second assumed when the upstream does not say how long the audio was: 128 kbit/s,
 * a common bitrate of compressed speech (MP3, M4A). Uncompressed WAV overstates the duration,
 * and so the cost, which errs on the side of the budget.
 */
export const ASSUMED_BYTES_PER_SECOND = 16_000;

/**
 * The speech-to-text stage: resolve the transcription model, admit against the organisation's
 * limits with the estimated price, call the provider (the organisation's own key first) and
 * queue the ledger row priced per minute (`unitPrices.perMinute`) of the duration the upstream
 * reported (`verbose_json`), else of the duration estimated from the file size.
 *
 * @throws GatewayError 404 `model_not_found` (param `model`), or (param `model`) for a model whose
 *   provider serves speech-to-text only through the voice endpoints; 500 `no_provider_configured`;
 *   429/402 from the limits; the provider's error.
 */
export async function transcribe(deps: UnitStageDeps, request: TranscribeRequest, context: Exchange): Promise<TranscribeResponse> {
  const org = await orgProviders(deps, context.caller.org.id);
  const model = requireAllowedModel(context.caller, unitModel(deps.catalog, request.model, 'transcription', 'transcription'));
  const provider = org.providers.get(model.provider);
  if (provider && !provider.transcribe && provider.recognize) {
    throw invalidRequest(`${model.id} has no OpenAI transcription formats; use POST /v1/voice/transcribe for it.`, 'model');
  }
  const estimatedSeconds = request.file.byteLength / ASSUMED_BYTES_PER_SECOND;
  const estimatedCostUsd = audioCost(model, estimatedSeconds);
  const reservation = await admitUnits(deps, context, { tokens: 0, costUsd: estimatedCostUsd });
  let transcription: TranscriptionResult;
  try {
    transcription = await callUnit(deps, org, model, context.signal, (provider) => {
      const call = provider.transcribe?.bind(provider);
      return call && ((options) => call({ ...request, model: model.upstreamId }, options));
    });
  } catch (error) {
    void reservation.release();
    throw error;
  }
  const costEstimated = transcription.durationSeconds === undefined;
  const costUsd = costEstimated ? estimatedCostUsd : audioCost(model, transcription.durationSeconds ?? 0);
  const { headers } = recordUnitUsage(deps, context, reservation, { model, requestedModel: request.model, costUsd, byok: org.ownKey(model.provider), promptTokens: 0, estimatedCostUsd });
  headers['x-svc-cost-estimated'] = String(costEstimated);
  return { transcription, costUsd, costEstimated, headers };
}
