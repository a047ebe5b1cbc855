import { bearer, defineRoute, jsonResponse } from '@svc/openapi';
import { transcribeVoice } from '@svc/pipeline';
import { decodeVoiceTranscribeRequest, voiceTranscribeFormSchema } from '@svc/protocol';
import type { RouteAdder } from '@svc/http-kit';
import type { InferenceDeps } from '../deps.js';
import type { AppEnv } from '../env.js';
import { readAudioForm } from '../multipart-form.js';
import { exchangeOf } from '../request-context.js';
import { callErrors } from './answer-headers.js';
import { voiceAnswerHeaders } from './voice-answer.js';

export const voiceTranscribeRoute = defineRoute({
  method: 'post',
  path: '/v1/voice/transcribe',
  operationId: 'transcribeVoice',
  summary: 'Transcribe speech (voice pipeline)',
  description:
    'Speech to text on the voice catalog (OpenAI, Groq, Deepgram, ElevenLabs): `stt_model` names the model, else the gateway picks one by `language` (English or unspecified: the cheapest low-latency model). Billed as the provider\'s price plus the per-minute platform fee.',
  tags: ['Voice'],
  auth: bearer('inference:audio'),
  body: { schema: voiceTranscribeFormSchema, contentType: 'multipart/form-data', name: 'VoiceTranscribeRequest' },
  responses: {
    200: jsonResponse(
      '`{object: "voice.transcription", text, language, duration, duration_estimated, model, intelligence_mode, cost: {provider_usd, platform_fee_usd, total_usd, attribution}}`.',
      voiceAnswerHeaders,
    ),
  },
  errors: callErrors,
});

/**
 * `POST /v1/voice/transcribe` (multipart: `file` or `audio`, optional `stt_model`, `language`):
 * `{object: "voice.transcription", text, language, duration, duration_estimated, model,
 * intelligence_mode, cost: {provider_usd, platform_fee_usd, total_usd, attribution}}`. Scope
 * `inference:audio`.
 */
export function registerVoiceTranscribe(routes: RouteAdder<AppEnv>, deps: InferenceDeps): void {
  routes.add(voiceTranscribeRoute, async (c) => {
    const request = await decodeVoiceTranscribeRequest(await readAudioForm(c));
    const out = await transcribeVoice(deps, request, exchangeOf(c, { voice: true }));
    return c.json(
      {
        object: 'voice.transcription',
        text: out.text,
        language: out.language,
        duration: out.durationSeconds,
        duration_estimated: out.durationEstimated,
        model: out.model,
        intelligence_mode: out.mode,
        cost: { provider_usd: out.cost.providerUsd, platform_fee_usd: out.cost.platformFeeUsd, total_usd: out.cost.totalUsd, attribution: out.byok ? 'byok' : 'svc' },
      },
      200,
      out.headers,
    );
  });
}
