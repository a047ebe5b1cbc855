import { requireScope } from '@svc/auth';
import { speak } from '@svc/pipeline';
import { decodeSpeechRequest } from '@svc/protocol';
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

/** `POST /v1/audio/speech`: the provider's audio bytes streamed through with their content type. */
export function registerAudio(app: Hono<AppEnv>, deps: InferenceDeps): void {
  app.post('/v1/audio/speech', async (c) => {
    requireScope(c.get('caller'), 'inference:audio');
    const request = decodeSpeechRequest(await readJson(c, deps.maxBodyBytes));
    const { audio, headers } = await speak(deps, request, requestContext(c));
    return c.body(audioStream(audio.body), 200, { 'content-type': audio.contentType, ...headers });
  });
}
