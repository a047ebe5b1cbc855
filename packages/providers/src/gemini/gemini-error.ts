import { ProviderError, type ProviderErrorKind, kindFromStatus } from '@svc/core';
import * as v from 'valibot';
import { type ErrorClassification, isRecord } from '../shared/http.js';
import { type GeminiError, geminiErrorSchema } from './gemini-api.js';

// "The input token count (1200293) exceeds the maximum number of tokens allowed (1048576)."
const contextTooLong = /exceeds the maximum number of tokens|input token count|too many tokens|context (window|length)/i;
const invalidKey = /api key not valid|api_key_invalid|invalid api key/i;
const billing = /billing|free tier|prepayment|credits/i;

/** A Gemini error classification plus the `RetryInfo.retryDelay` the body may carry. */
export interface GeminiErrorClassification extends ErrorClassification {
  retryAfterMs?: number;
}

/**
 * The normalised kind of a Google API error (`{error: {code, message, status, details}}`).
 * `httpStatus` is absent for errors that arrive inside a stream.
 */
export function geminiErrorKind(error: GeminiError, httpStatus?: number): ProviderErrorKind {
  const message = error.message ?? '';
  switch (error.status) {
    case 'RESOURCE_EXHAUSTED':
      return 'rate_limit';
    case 'INVALID_ARGUMENT':
      if (contextTooLong.test(message)) return 'context_length';
      // A bad key is reported as a 400 INVALID_ARGUMENT, not a 401.
      if (invalidKey.test(message) || reasons(error).includes('API_KEY_INVALID')) return 'authentication';
      return 'invalid_request';
    case 'FAILED_PRECONDITION':
      // Billing not enabled, or the account's region cannot use the API: nothing is wrong with
      // the request, so it must stay retryable on another key or provider.
      return billing.test(message) ? 'billing' : 'authentication';
    case 'UNAUTHENTICATED':
    case 'PERMISSION_DENIED':
      return 'authentication';
    case 'UNAVAILABLE':
      return 'overloaded';
    case 'DEADLINE_EXCEEDED':
      return 'timeout';
    case 'NOT_FOUND':
      return 'not_found';
    case 'INTERNAL':
    case 'UNKNOWN':
      return 'server';
    default: {
      const status = httpStatus ?? error.code;
      return status === undefined ? 'server' : kindFromStatus(status);
    }
  }
}

/**
 * `postJson` classifier for a non-2xx answer. The body is `{error}` or, from the
 * streaming endpoint, `[{error}]`.
 */
export function classifyGeminiError(status: number, body: string): GeminiErrorClassification {
  const error = readGeminiError(body);
  if (!error) return { kind: kindFromStatus(status) };
  const out: GeminiErrorClassification = { kind: geminiErrorKind(error, status), message: error.message ?? `Gemini answered ${status}.` };
  if (error.status) out.code = error.status;
  const retryAfterMs = retryDelay(error);
  if (retryAfterMs !== undefined) out.retryAfterMs = retryAfterMs;
  return out;
}

/** The ProviderError for an error that arrived as a chunk after the stream began. */
export function geminiStreamError(error: GeminiError): ProviderError {
  return new ProviderError({
    provider: 'gemini',
    kind: geminiErrorKind(error),
    message: error.message ?? 'Gemini reported an error mid-stream.',
    upstreamCode: error.status,
    upstreamStatus: error.code,
    retryAfterMs: retryDelay(error),
  });
}

function readGeminiError(body: string): GeminiError | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return undefined;
  }
  const root: unknown = Array.isArray(parsed) ? parsed[0] : parsed;
  if (!isRecord(root)) return undefined;
  const result = v.safeParse(geminiErrorSchema, root.error);
  return result.success ? result.output : undefined;
}

function reasons(error: GeminiError): string[] {
  const out: string[] = [];
  for (const detail of error.details ?? []) if (isRecord(detail) && typeof detail.reason === 'string') out.push(detail.reason);
  return out;
}

/** `google.rpc.RetryInfo.retryDelay` is a protobuf Duration in JSON: `"34s"`, `"1.5s"`. */
function retryDelay(error: GeminiError): number | undefined {
  for (const detail of error.details ?? []) {
    if (!isRecord(detail) || typeof detail.retryDelay !== 'string') continue;
    const seconds = Number.parseFloat(detail.retryDelay);
    if (Number.isFinite(seconds) && seconds >= 0) return Math.round(seconds * 1000);
  }
  return undefined;
}
