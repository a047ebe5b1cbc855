import { type ProviderErrorKind, kindFromStatus } from '@svc/core';
import { type ErrorClassification, isRecord, readErrorRecord } from '../shared/http.js';

/** `detail.status` values whose kind is not the HTTP status's (a spent quota answers 401). */
const kindByStatus: ReadonlyMap<string, ProviderErrorKind> = new Map([
  ['quota_exceeded', 'billing'],
  ['payment_required', 'billing'],
  ['invalid_api_key', 'authentication'],
  ['too_many_concurrent_requests', 'rate_limit'],
  ['system_busy', 'overloaded'],
  ['voice_not_found', 'invalid_request'],
  ['model_not_found', 'invalid_request'],
]);

/**
 * ElevenLabs' error bodies: `{detail: {status, message}}` (newer ones add `type` and `code`), or
 * FastAPI's validation list `{detail: [{loc, msg, type}]}` on a 422, whose first entry names the
 * field (`loc: ["body", "text"]`).
 */
export function classifyElevenLabsError(status: number, text: string): ErrorClassification {
  const detail = readErrorRecord(text)?.detail;
  if (Array.isArray(detail)) {
    const first: unknown = detail[0];
    if (!isRecord(first)) return { kind: kindFromStatus(status) };
    const loc = Array.isArray(first.loc) ? first.loc.filter((part): part is string => typeof part === 'string' && part !== 'body' && part !== 'query') : [];
    return {
      kind: 'invalid_request',
      ...(typeof first.msg === 'string' ? { message: loc.length > 0 ? `${loc.join('.')}: ${first.msg}` : first.msg } : {}),
      ...(loc.length > 0 ? { param: loc.join('.') } : {}),
    };
  }
  if (!isRecord(detail)) return { kind: kindFromStatus(status) };
  const code = typeof detail.status === 'string' ? detail.status : typeof detail.code === 'string' ? detail.code : undefined;
  return {
    kind: (code === undefined ? undefined : kindByStatus.get(code)) ?? kindFromStatus(status),
    ...(typeof detail.message === 'string' ? { message: detail.message } : {}),
    ...(code === undefined ? {} : { code }),
  };
}
