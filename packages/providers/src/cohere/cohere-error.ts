import { ProviderError, type ProviderErrorKind, kindFromStatus } from '@svc/core';
import { type ErrorClassification, readErrorBody } from '../shared/http.js';

// Cohere has no error codes, only `{id, message}`; an oversized prompt is a 400 whose message
// says "too many tokens" (or names the context length).
const contextTooLong = /too many tokens|context length|context window|prompt is too long|exceeds? the maximum/i;
// A trial key's monthly allowance is a 429 too, but waiting will not help: a billing failure.
const monthlyQuota = /per month|\/ ?month|monthly/i;

/** The kind of a Cohere failure; `status` is absent for a failure reported inside a stream. */
export function cohereErrorKind(status: number | undefined, message: string): ProviderErrorKind {
  if ((status === undefined || status === 400 || status === 422) && contextTooLong.test(message)) return 'context_length';
  if (status === 429 && monthlyQuota.test(message)) return 'billing';
  // 498: Cohere's "invalid token"; 499: the request was cancelled, which for us is our own deadline.
  if (status === 498) return 'authentication';
  if (status === 499) return 'timeout';
  return status === undefined ? 'server' : kindFromStatus(status);
}

/** `postJson` classifier: reads the `{message}` body of a non-2xx Cohere answer. */
export function classifyCohereError(status: number, body: string): ErrorClassification {
  const message = readErrorBody(body).message ?? `Cohere answered ${status}.`;
  return { kind: cohereErrorKind(status, message), message };
}

/** A generation that failed after the answer began: an `error` event or `finish_reason` ERROR/TIMEOUT. */
export function cohereStreamError(message: string | null | undefined, finishReason?: string): ProviderError {
  const text = message || `Cohere ended the answer with finish_reason ${finishReason ?? 'ERROR'}.`;
  return new ProviderError({
    provider: 'cohere',
    kind: finishReason === 'TIMEOUT' ? 'timeout' : cohereErrorKind(undefined, text),
    message: text,
    upstreamCode: finishReason,
  });
}
