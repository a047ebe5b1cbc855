import { requireScope } from '@svc/auth';
import { synthesizeVoice } from '@svc/pipeline';
import { decodeVoiceSynthesizeRequest } from '@svc/protocol';
import type { Hono } from 'hono';
import { audioStream } from '../audio-stream.js';
import type { InferenceDeps } from '../deps.js';
import type { AppEnv } from '../env.js';
import { readJson } from '../read-body.js';
import { requestContext } from '../request-context.js';

/**
 * `POST /v1/voice/synthesize` (JSON `{text, model, voice?, output_format?}`): the audio bytes
 * streamed through with their content type, the voice and format in `x-svc-voice-id` and
 * `x-svc-audio-format`, the costs in `x-svc-*-usd`. Scope `inference:audio`.
 */
export function registerVoiceSynthesize(app: Hono<AppEnv>, deps: InferenceDeps): void {
  app.post('/v1/voice/synthesize', async (c) => {
    requireScope(c.get('caller'), 'inference:audio');
    const request = decodeVoiceSynthesizeRequest(await readJson(c, deps.maxBodyBytes));
    const { audio, headers } = await synthesizeVoice(deps, request, requestContext(c));
    return c.body(audioStream(audio.body), 200, { 'content-type': audio.contentType, ...headers });
  });
}
