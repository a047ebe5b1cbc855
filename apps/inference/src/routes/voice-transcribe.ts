import { requireScope } from '@svc/auth';
import { transcribeVoice } from '@svc/pipeline';
import { decodeVoiceTranscribeRequest } from '@svc/protocol';
import type { Hono } from 'hono';
import type { InferenceDeps } from '../deps.js';
import type { AppEnv } from '../env.js';
import { readAudioForm } from '../multipart-form.js';
import { requestContext } from '../request-context.js';

/**
 * `POST /v1/voice/transcribe` (multipart: `file` or `audio`, optional `stt_model`, `language`):
 * `{object: "voice.transcription", text, language, duration, duration_estimated, model,
 * intelligence_mode, cost: {provider_usd, platform_fee_usd, total_usd, attribution}}`. Scope
 * `inference:audio`.
 */
export function registerVoiceTranscribe(app: Hono<AppEnv>, deps: InferenceDeps): void {
  app.post('/v1/voice/transcribe', async (c) => {
    requireScope(c.get('caller'), 'inference:audio');
    const request = await decodeVoiceTranscribeRequest(await readAudioForm(c));
    const out = await transcribeVoice(deps, request, requestContext(c));
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
