import { type Reservation, audioCost, speechCost } from '@svc/billing';
import type { ModelInfo } from '@svc/catalog';
import type { IntelligenceMode } from '@svc/core';
import type { AudioUpload } from '@svc/protocol';
import type { Recognition, RecognitionRequest, SpeechResult } from '@svc/providers';
import type { Gateway, Exchange } from '../gateway.js';
import { ASSUMED_BYTES_PER_SECOND } from '../units/transcribe.js';
import { type OrgProviders, type UnitStageDeps, callUnit, recordUnitRow } from '../units/unit-stage.js';
import type { VoiceSessionStore } from './voice-session.js';
import type { SynthesisPlan } from './voice-models.js';

/** What the voice endpoints add to the single-model stages' deps. */
export interface VoiceSettings {
  /** USD per minute of audio (heard and spoken) the platform adds to every voice request. */
  platformFeePerMinute: number;
  /** Turn history of `full`-mode conversations; absent: none kept. */
  sessions?: VoiceSessionStore;
}

export interface VoiceDeps extends UnitStageDeps {
  voice: VoiceSettings;
}

/** Voice chat also runs the chat pipeline (routing, limits, ledger) for its middle step. */
export interface VoiceChatDeps extends VoiceDeps {
  gateway: Pick<Gateway, 'chat'>;
}

/** An uploaded audio file. */
export type VoiceAudio = AudioUpload;

/** Runs a provider call of an admitted request, releasing the reservation when it fails. */
export async function releasedOnFailure<T>(reservation: Reservation, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    void reservation.release();
    throw error;
  }
}

/** A speech-to-text call's outcome, priced. */
export interface HeardSpeech {
  recognition: Recognition;
  /** Seconds of audio: as the provider reported, else estimated from the file size. */
  seconds: number;
  estimated: boolean;
  /** The provider's price of those seconds. */
  costUsd: number;
  latencyMs: number;
}

/** Seconds of an upload when the provider does not say: its size at 128 kbit/s. */
export function estimatedSeconds(audio: VoiceAudio): number {
  return audio.file.byteLength / ASSUMED_BYTES_PER_SECOND;
}

/** Speech to text with `model` behind its breaker, the organisation's own key first, priced per minute. */
export async function hearSpeech(deps: UnitStageDeps, org: OrgProviders, model: ModelInfo, audio: VoiceAudio, language: string | undefined, signal: AbortSignal): Promise<HeardSpeech> {
  const started = performance.now();
  const recognition = await callUnit(deps, org, model, signal, (provider) => {
    const recognize = provider.recognize?.bind(provider);
    const request: RecognitionRequest = { model: model.upstreamId, file: audio.file, filename: audio.filename };
    if (audio.fileType !== undefined) request.fileType = audio.fileType;
    if (language !== undefined) request.language = language;
    return recognize && ((call) => recognize(request, call));
  });
  const reported = recognition.durationSeconds;
  const seconds = reported ?? estimatedSeconds(audio);
  return { recognition, seconds, estimated: reported === undefined, costUsd: audioCost(model, seconds), latencyMs: Math.round(performance.now() - started) };
}

/** Text to speech with `model` as planned; resolves once the provider answered, the audio not yet read. */
export function speakText(deps: UnitStageDeps, org: OrgProviders, model: ModelInfo, plan: SynthesisPlan, text: string, signal: AbortSignal): Promise<SpeechResult> {
  return callUnit(deps, org, model, signal, (provider) => {
    const speech = provider.speech?.bind(provider);
    return speech && ((call) => speech({ model: model.upstreamId, input: text, voice: plan.voice, responseFormat: plan.format, sampleRate: plan.sampleRate }, call));
  });
}

/** The provider's price of speaking `text` with `model`. */
export function speakingCost(model: ModelInfo, text: string): number {
  return speechCost(model, text.length);
}

/** A provider call's ledger row, `<request id><suffix>`. */
export function recordProviderRow(deps: UnitStageDeps, context: Exchange, model: ModelInfo, costUsd: number, suffix = ''): void {
  recordUnitRow(deps, context, {
    requestId: `${context.requestId}${suffix}`,
    model: model.id,
    provider: model.provider,
    costUsd,
    promptTokens: 0,
    latencyMs: Math.round(performance.now() - context.startedAt),
  });
}

/** What a voice request cost, split so that pass-through and fee stay auditable. */
export interface VoiceCost {
  /** The providers' prices (speech-to-text, text-to-speech; a voice chat's chat step is apart). */
  providerUsd: number;
  platformFeeUsd: number;
  totalUsd: number;
  /** Seconds the fee was charged on. */
  billedSeconds: number;
}

/** `x-svc-*` headers of a voice answer; `model` is the one that did the endpoint's own work. */
export function voiceHeaders(context: Exchange, mode: IntelligenceMode, model: ModelInfo, cost: VoiceCost, reservation: Reservation): Record<string, string> {
  return {
    'x-request-id': context.requestId,
    'x-svc-request-id': context.requestId,
    'x-svc-org-id': context.caller.org.id,
    'x-svc-intelligence-mode': mode,
    'x-svc-provider': model.provider,
    'x-svc-model': model.id,
    'x-svc-tier-used': model.tier,
    'x-svc-cache-hit': 'false',
    'x-svc-cost-usd': String(cost.totalUsd),
    'x-svc-provider-cost-usd': String(cost.providerUsd),
    'x-svc-platform-fee-usd': String(cost.platformFeeUsd),
    'x-svc-audio-seconds': String(Math.round(cost.billedSeconds * 1000) / 1000),
    ...reservation.headers,
  };
}
