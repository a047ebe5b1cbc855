import { type RouteDescriptor, bearer, defineRoute } from '@svc/openapi';
import { speak, transcribe } from '@svc/pipeline';
import {
  decodeSpeechRequest,
  decodeTranscriptionRequest,
  speechRequestSchema,
  transcriptionContentTypes,
  transcriptionFormSchema,
  translationFormSchema,
} from '@svc/protocol';
import { type RouteRegistry, readJson } from '@svc/http-kit';
import { audioStream } from '../audio-stream.js';
import type { InferenceDeps } from '../deps.js';
import type { AppEnv } from '../env.js';
import { readAudioForm } from '../multipart-form.js';
import { exchangeOf } from '../request-context.js';
import { answerHeaders, callErrors } from './answer-headers.js';

export const speechRoute = defineRoute({
  method: 'post',
  path: '/v1/audio/speech',
  operationId: 'createSpeech',
  summary: 'Generate speech from text',
  tags: ['Audio'],
  auth: bearer('inference:audio'),
  body: { schema: speechRequestSchema, name: 'CreateSpeechRequest' },
  responses: {
    200: {
      description: "The provider's audio, streamed through with its content type (`audio/mpeg` for mp3, ...).",
      content: { 'application/octet-stream': null },
      headers: answerHeaders,
    },
  },
  errors: callErrors,
});

const transcriptAnswer = {
  description: 'The text in the requested `response_format`: JSON (`json`, `verbose_json`), plain text, SubRip or WebVTT.',
  content: { 'application/json': null, 'text/plain': null, 'application/x-subrip': null, 'text/vtt': null },
  headers: answerHeaders,
};

export const transcriptionRoute = defineRoute({
  method: 'post',
  path: '/v1/audio/transcriptions',
  operationId: 'createTranscription',
  summary: 'Transcribe audio into text',
  tags: ['Audio'],
  auth: bearer('inference:audio'),
  body: { schema: transcriptionFormSchema, contentType: 'multipart/form-data', name: 'CreateTranscriptionRequest' },
  responses: { 200: transcriptAnswer },
  errors: callErrors,
});

export const translationRoute = defineRoute({
  method: 'post',
  path: '/v1/audio/translations',
  operationId: 'createTranslation',
  summary: 'Translate audio into English text',
  description: 'The transcription form without `language`: the output is English (a `language` part is ignored).',
  tags: ['Audio'],
  auth: bearer('inference:audio'),
  body: { schema: translationFormSchema, contentType: 'multipart/form-data', name: 'CreateTranslationRequest' },
  responses: { 200: transcriptAnswer },
  errors: callErrors,
});

/**
 * `POST /v1/audio/speech`: the provider's audio bytes streamed through with their content type.
 * `POST /v1/audio/transcriptions` and `/translations`: the provider's text in the requested
 * format, with that format's content type.
 */
export function registerAudio(routes: RouteRegistry<AppEnv>, deps: InferenceDeps): void {
  routes.add(speechRoute, async (c) => {
    const request = decodeSpeechRequest(await readJson(c, deps.maxBodyBytes));
    const { audio, headers } = await speak(deps, request, exchangeOf(c));
    return c.body(audioStream(audio.body), 200, { 'content-type': audio.contentType, ...headers });
  });
  const tasks: [RouteDescriptor, 'transcription' | 'translation'][] = [
    [transcriptionRoute, 'transcription'],
    [translationRoute, 'translation'],
  ];
  for (const [route, task] of tasks) {
    routes.add(route, async (c) => {
      const request = await decodeTranscriptionRequest(await readAudioForm(c), task);
      const { transcription, headers } = await transcribe(deps, request, exchangeOf(c));
      return c.body(transcription.body, 200, { 'content-type': transcriptionContentTypes[request.responseFormat], ...headers });
    });
  }
}
