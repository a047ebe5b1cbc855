import { bearer, defineRoute } from '@svc/openapi';
import { synthesizeVoice } from '@svc/pipeline';
import { decodeVoiceSynthesizeRequest, voiceSynthesizeRequestSchema } from '@svc/protocol';
import { type RouteAdder, readJson } from '@svc/http-kit';
import { audioStream } from '../audio-stream.js';
import type { InferenceDeps } from '../deps.js';
import type { AppEnv } from '../env.js';
import { exchangeOf } from '../request-context.js';
import { callErrors } from './answer-headers.js';
import { voiceAnswerHeaders } from './voice-answer.js';

export const voiceSynthesizeRoute = defineRoute({
  method: 'post',
  path: '/v1/voice/synthesize',
  operationId: 'synthesizeVoice',
  summary: 'Synthesize speech (voice pipeline)',
  description:
    "Text to speech on the voice catalog: the model's voices, output formats and longest text are checked against the catalog (400 naming the field).",
  tags: ['Voice'],
  auth: bearer('inference:audio'),
  body: { schema: voiceSynthesizeRequestSchema, name: 'VoiceSynthesizeRequest' },
  responses: {
    200: {
      description: "The provider's audio, streamed through with its content type.",
      content: { 'application/octet-stream': null },
      headers: { ...voiceAnswerHeaders, 'x-svc-voice-id': 'The voice that spoke.', 'x-svc-audio-format': 'The `<format>_<rate>` of the audio.' },
    },
  },
  errors: callErrors,
});

/**
 * `POST /v1/voice/synthesize` (JSON `{text, model, voice?, output_format?}`): the audio bytes
 * streamed through with their content type, the voice and format in `x-svc-voice-id` and
 * `x-svc-audio-format`, the costs in `x-svc-*-usd`. Scope `inference:audio`.
 */
export function registerVoiceSynthesize(routes: RouteAdder<AppEnv>, deps: InferenceDeps): void {
  routes.add(voiceSynthesizeRoute, async (c) => {
    const request = decodeVoiceSynthesizeRequest(await readJson(c, deps.maxBodyBytes));
    const { audio, headers } = await synthesizeVoice(deps, request, exchangeOf(c, { voice: true }));
    return c.body(audioStream(audio.body), 200, { 'content-type': audio.contentType, ...headers });
  });
}
