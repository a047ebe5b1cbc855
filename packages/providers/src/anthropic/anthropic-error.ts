import { ProviderError, type ProviderErrorKind, kindFromStatus } from '@svc/core';
import { type ErrorClassification, readErrorBody } from '../shared/http.js';

// Anthropic reports an oversized prompt as a plain invalid_request_error; only the message tells.
const contextTooLong = /prompt is too long|exceeds? (the )?(context|maximum context)|context (window|limit)|input length and `max_tokens` exceed/i;
// A workspace out of credit is a 400 invalid_request_error, not a 402.
const outOfCredit = /credit balance|billing|purchase credits|plans? & billing/i;

/**
 * The normalised kind of an Anthropic error (`{type:'error', error:{type, message}}`).
 * `status` is absent for errors that arrive inside a stream (`event: error`).
 */
export function anthropicErrorKind(type: string | undefined, message: string, status?: number): ProviderErrorKind {
  switch (type) {
    case 'invalid_request_error':
      if (contextTooLong.test(message)) return 'context_length';
      if (outOfCredit.test(message)) return 'billing';
      return 'invalid_request';
    case 'authentication_error':
    case 'permission_error':
      return 'authentication';
    case 'billing_error':
      return 'billing';
    case 'not_found_error':
      return 'not_found';
    case 'rate_limit_error':
      return 'rate_limit';
    case 'overloaded_error':
      return 'overloaded';
    case 'timeout_error':
      return 'timeout';
    case 'api_error':
      return 'server';
    case 'request_too_large':
      // Body over the upstream's byte limit: no other model accepts more bytes either.
      return 'invalid_request';
    default:
      return status === undefined ? 'server' : kindFromStatus(status);
  }
}

/** `postJson` classifier: reads the Anthropic error body of a non-2xx answer. */
export function classifyAnthropicError(status: number, body: string): ErrorClassification {
  const error = readErrorBody(body);
  const message = error.message ?? `Anthropic answered ${status}.`;
  return { kind: anthropicErrorKind(error.type, message, status), message, code: error.type };
}

/** The ProviderError for an `event: error` that arrived after the stream began. */
export function anthropicStreamError(error: { type: string; message?: string | undefined }): ProviderError {
  const message = error.message ?? 'Anthropic reported an error mid-stream.';
  return new ProviderError({ provider: 'anthropic', kind: anthropicErrorKind(error.type, message), message, upstreamCode: error.type });
}
