import { ProviderError, type ProviderErrorKind, kindFromStatus } from '@svc/core';
import { type ErrorClassification, type ErrorFields, readErrorBody, readErrorObject } from '../shared/http.js';

/** Provider error codes/types that say more than the HTTP status does. */
const kindByCode: ReadonlyMap<string, ProviderErrorKind> = new Map<string, ProviderErrorKind>([
  ['context_length_exceeded', 'context_length'],
  ['insufficient_quota', 'billing'],
  ['billing_hard_limit_reached', 'billing'],
  ['billing_not_active', 'billing'],
  ['rate_limit_exceeded', 'rate_limit'],
  ['rate_limit_error', 'rate_limit'],
  ['tokens', 'rate_limit'],
  ['requests', 'rate_limit'],
  ['invalid_api_key', 'authentication'],
  ['authentication_error', 'authentication'],
  ['model_not_found', 'not_found'],
  ['content_filter', 'content_filter'],
  ['content_policy_violation', 'content_filter'],
  // GPT image models' refusal of a prompt by their moderation.
  ['moderation_blocked', 'content_filter'],
  ['server_error', 'server'],
  ['overloaded_error', 'overloaded'],
  ['engine_overloaded', 'overloaded'],
]);

// vLLM, Mistral, Together and others report context overflow as a plain 400 without a code.
const contextLengthMessage = /maximum context length|context window|context_length|too many tokens|prompt is too long/i;

/**
 * Reads an OpenAI-style error body into a kind. `insufficient_quota` arrives as a 429 but is a
 * billing failure (retrying the same key will not help), hence code before status.
 */
export function classifyOpenAIError(status: number, text: string): ErrorClassification {
  return classifyFields(status, readErrorBody(text));
}

/** An `{"error": ...}` object sent as a stream event or inside a 200 body. */
export function openAIPayloadError(provider: string, payload: unknown): ProviderError {
  const classified = classifyFields(undefined, readErrorObject(payload));
  return new ProviderError({
    provider,
    kind: classified.kind ?? 'server',
    message: classified.message ?? `${provider} reported an error.`,
    upstreamCode: classified.code,
    param: classified.param ?? null,
  });
}

/** `status` is undefined for an error reported inside a 200 answer. */
function classifyFields(status: number | undefined, body: ErrorFields): ErrorClassification {
  const byStatus = status === undefined ? undefined : kindFromStatus(status);
  // A specific status (503 overloaded, 429, 504 ...) says more than a generic `type` such as
  // `server_error`; generic statuses (400, 500) defer to the body's type.
  const specificStatus = byStatus === 'server' || byStatus === 'invalid_request' ? undefined : byStatus;
  const kind =
    (body.code !== undefined ? kindByCode.get(body.code) : undefined) ??
    ((status === undefined || status === 400) && body.message !== undefined && contextLengthMessage.test(body.message) ? 'context_length' : undefined) ??
    specificStatus ??
    (body.type !== undefined ? kindByCode.get(body.type) : undefined) ??
    byStatus ??
    'server';
  return { kind, message: body.message, code: body.code ?? body.type, param: body.param ?? null };
}
