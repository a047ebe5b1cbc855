import { MAX_AUDIO_FILE_BYTES } from '@svc/protocol';
import { invalidRequest, payloadTooLarge } from '@svc/core';
import type { Context } from 'hono';
import type { AppEnv } from './env.js';

/** Room for the form's other parts and boundaries around a file at the limit. */
const FORM_OVERHEAD_BYTES = 1024 * 1024;

/**
 * The multipart form of an audio upload: 413 when the declared length is above a file at the
 * limit, 400 when the body is not multipart or does not parse.
 */
export async function readAudioForm(c: Context<AppEnv>): Promise<FormData> {
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
