import { requireScope } from '@svc/auth';
import { speak, transcribe } from '@svc/pipeline';
import { decodeSpeechRequest, decodeTranscriptionRequest, transcriptionContentTypes } from '@svc/protocol';
import type { Hono } from 'hono';
import { audioStream } from '../audio-stream.js';
import type { InferenceDeps } from '../deps.js';
import type { AppEnv } from '../env.js';
import { readAudioForm } from '../multipart-form.js';
import { readJson } from '../read-body.js';
import { requestContext } from '../request-context.js';

/**
 * `POST /v1/audio/speech`: the provider's audio bytes streamed through with their content type.
 * `POST /v1/audio/transcriptions` and `/translations`: the provider's text in the requested
 * format, with that format's content type.
 */
export function registerAudio(app: Hono<AppEnv>, deps: InferenceDeps): void {
  app.post('/v1/audio/speech', async (c) => {
    requireScope(c.get('caller'), 'inference:audio');
    const request = decodeSpeechRequest(await readJson(c, deps.maxBodyBytes));
    const { audio, headers } = await speak(deps, request, requestContext(c));
    return c.body(audioStream(audio.body), 200, { 'content-type': audio.contentType, ...headers });
  });
  for (const [path, task] of [['/v1/audio/transcriptions', 'transcription'], ['/v1/audio/translations', 'translation']] as const) {
    app.post(path, async (c) => {
      requireScope(c.get('caller'), 'inference:audio');
      const request = await decodeTranscriptionRequest(await readAudioForm(c), task);
      const { transcription, headers } = await transcribe(deps, request, requestContext(c));
      return c.body(transcription.body, 200, { 'content-type': transcriptionContentTypes[request.responseFormat], ...headers });
    });
  }
}
