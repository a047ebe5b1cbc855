import { requireScope } from '@svc/auth';
import { invalidRequest, payloadTooLarge } from '@svc/core';
import { speak, transcribe } from '@svc/pipeline';
import { MAX_AUDIO_FILE_BYTES, decodeSpeechRequest, decodeTranscriptionRequest, transcriptionContentTypes } from '@svc/protocol';
import type { Context } from 'hono';
import type { Hono } from 'hono';
import type { InferenceDeps } from '../deps.js';
import type { AppEnv } from '../env.js';
import { readJson } from '../read-body.js';
import { requestContext } from '../request-context.js';

/** The provider's audio as a web stream; cancelling it (client gone) ends the upstream read. */
function audioStream(body: AsyncIterable<Uint8Array>): ReadableStream<Uint8Array> {
  const iterator = body[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await iterator.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    async cancel() {
      await iterator.return?.();
    },
  });
}

/** Room for the form's other parts and boundaries around a file at the limit. */
const FORM_OVERHEAD_BYTES = 1024 * 1024;

/** The multipart form: 413 when the declared length is above a file at the limit, 400 when it does not parse. */
async function readForm(c: Context<AppEnv>): Promise<FormData> {
  if (Number(c.req.header('content-length')) > MAX_AUDIO_FILE_BYTES + FORM_OVERHEAD_BYTES) throw payloadTooLarge(MAX_AUDIO_FILE_BYTES);
  if (!c.req.header('content-type')?.startsWith('multipart/form-data')) {
    throw invalidRequest('The request body must be multipart/form-data with a file part.', null);
  }
  try {
    return await c.req.formData();
  } catch {
    throw invalidRequest('The multipart/form-data body could not be parsed.', null);
  }
}

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
      const request = await decodeTranscriptionRequest(await readForm(c), task);
      const { transcription, headers } = await transcribe(deps, request, requestContext(c));
      return c.body(transcription.body, 200, { 'content-type': transcriptionContentTypes[request.responseFormat], ...headers });
    });
  }
}
