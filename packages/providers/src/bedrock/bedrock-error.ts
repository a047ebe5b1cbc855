import { ProviderError, type ProviderErrorKind, kindFromStatus, parseRetryAfter } from '@svc/core';
import * as v from 'valibot';
import type { HttpHeaders } from '../shared/http-client.js';
import { isRecord } from '../shared/http.js';
import { bedrockErrorSchema } from './bedrock-api.js';

// "Input is too long for requested model.", "prompt is too long: 208310 tokens > 200000 maximum",
// "input length and `max_tokens` exceed context limit", "too many input tokens".
const contextTooLong = /too long|too many (input )?tokens|exceeds? (the )?(maximum )?(context|input)|context (window|length|limit)|input length and `max_tokens` exceed/i;

/**
 * The normalised kind of a Bedrock error type. AWS names the type `ThrottlingException` in
 * HTTP answers and `throttlingException` inside event streams, so the match ignores case.
 * `status` is absent for errors that arrive inside a stream.
 */
export function bedrockErrorKind(type: string | undefined, message: string, status?: number): ProviderErrorKind {
  switch (type?.toLowerCase()) {
    case 'throttlingexception':
    case 'servicequotaexceededexception':
      return 'rate_limit';
    case 'validationexception':
      return contextTooLong.test(message) ? 'context_length' : 'invalid_request';
    case 'accessdeniedexception':
    case 'unrecognizedclientexception':
    case 'invalidsignatureexception':
    case 'incompletesignatureexception':
    case 'missingauthenticationtokenexception':
    case 'expiredtokenexception':
      return 'authentication';
    case 'resourcenotfoundexception':
      return 'not_found';
    case 'serviceunavailableexception':
    case 'modelnotreadyexception':
      return 'overloaded';
    case 'modeltimeoutexception':
      return 'timeout';
    case 'internalserverexception':
    case 'modelstreamerrorexception':
    case 'modelerrorexception':
      return 'server';
    default:
      return status === undefined ? 'server' : kindFromStatus(status);
  }
}

/**
 * The ProviderError of a non-2xx answer. The type comes from the `x-amzn-errortype` header
 * (`ThrottlingException:http://internal.amazon.com/...`), else the body's `__type`
 * (`com.amazon.coral.validate#ValidationException`); the message from the body's `message`.
 */
export function bedrockHttpError(status: number, headers: HttpHeaders, body: string): ProviderError {
  const fields = readBody(body);
  const type = errorType(headers.get('x-amzn-errortype') ?? fields.type);
  const message = fields.message ?? (body.slice(0, 500) || `Bedrock answered ${status}.`);
  return new ProviderError({
    provider: 'bedrock',
    kind: bedrockErrorKind(type, message, status),
    message,
    upstreamStatus: status,
    upstreamCode: type,
    retryAfterMs: retryAfter(headers),
  });
}

/** The ProviderError of an exception frame (`:message-type: exception`) inside a ConverseStream. */
export function bedrockStreamError(type: string | undefined, payload: unknown): ProviderError {
  const parsed = v.safeParse(bedrockErrorSchema, payload);
  const message = (parsed.success ? (parsed.output.message ?? parsed.output.Message) : undefined) ?? `Bedrock reported ${type ?? 'an error'} mid-stream.`;
  return new ProviderError({ provider: 'bedrock', kind: bedrockErrorKind(type, message), message, upstreamCode: type });
}

function readBody(body: string): { message?: string; type?: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return {};
  }
  if (!isRecord(parsed)) return {};
  const message = typeof parsed.message === 'string' ? parsed.message : typeof parsed.Message === 'string' ? parsed.Message : undefined;
  const type = typeof parsed.__type === 'string' ? parsed.__type : undefined;
  return { ...(message === undefined ? {} : { message }), ...(type === undefined ? {} : { type }) };
}

function errorType(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  return raw.split(':', 1)[0]!.split('#').at(-1) || undefined;
}

function retryAfter(headers: HttpHeaders): number | undefined {
  const value = headers.get('retry-after');
  return value === null ? undefined : parseRetryAfter(new Headers({ 'retry-after': value }));
}
