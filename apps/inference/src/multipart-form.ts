import { MAX_AUDIO_FILE_BYTES } from '@svc/protocol';
import { type GatewayError, invalidRequest, payloadTooLarge } from '@svc/core';
import type { Context } from 'hono';
import type { AppEnv } from './env.js';

/** Room for the form's other parts and boundaries around a file at the limit. */
const FORM_OVERHEAD_BYTES = 1024 * 1024;

/**
 * A multipart form with one file of at most `maxFileBytes`: `tooLarge` when the declared length
 * is above a file at the limit, 400 when the body is not multipart or does not parse.
 */
export async function readMultipartForm(c: Context<AppEnv>, maxFileBytes: number, tooLarge: () => GatewayError): Promise<FormData> {
  if (Number(c.req.header('content-length')) > maxFileBytes + FORM_OVERHEAD_BYTES) throw tooLarge();
  if (!c.req.header('content-type')?.startsWith('multipart/form-data')) {
    throw invalidRequest('The request body must be multipart/form-data with a file part.', null);
  }
  try {
    return await c.req.formData();
  } catch {
    throw invalidRequest('The multipart/form-data body could not be parsed.', null);
  }
}

/** The multipart form of an audio upload: 413 when the declared length is above a file at the limit. */
export function readAudioForm(c: Context<AppEnv>): Promise<FormData> {
  return readMultipartForm(c, MAX_AUDIO_FILE_BYTES, () => payloadTooLarge(MAX_AUDIO_FILE_BYTES));
}
