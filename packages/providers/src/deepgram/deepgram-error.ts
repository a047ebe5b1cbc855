import { kindFromStatus } from '@svc/core';
import { type ErrorClassification, readErrorRecord } from '../shared/http.js';

/**
 * Deepgram's error bodies come in two shapes, `{err_code, err_msg, request_id}` and
 * `{category, message, details, request_id}`; the kind follows the status (401 a bad key, 402
 * no credit, 429 too many concurrent requests).
 */
export function classifyDeepgramError(status: number, text: string): ErrorClassification {
  const body = readErrorRecord(text);
  if (!body) return { kind: kindFromStatus(status) };
  const code = typeof body.err_code === 'string' ? body.err_code : typeof body.category === 'string' ? body.category : undefined;
  const message = typeof body.err_msg === 'string' ? body.err_msg : typeof body.message === 'string' ? body.message : undefined;
  const details = typeof body.details === 'string' && body.details !== '' ? body.details : undefined;
  return {
    kind: kindFromStatus(status),
    ...(message === undefined ? {} : { message: details ? `${message} ${details}` : message }),
    ...(code === undefined ? {} : { code }),
  };
}
