import { errorTypes } from '@svc/core';
import * as v from 'valibot';
import type { ErrorFormat, ErrorStatus } from './route-descriptor.js';

/** The spec's error object (document 1 §Errors), as `GatewayError.toBody()` writes it. */
export const errorObjectSchema = v.object({
  message: v.pipe(v.string(), v.description('What went wrong, for people; not stable.')),
  type: v.picklist(errorTypes),
  code: v.pipe(v.nullable(v.string()), v.description('Stable machine-readable code (`validation_error`, `invalid_api_key`, ...).')),
  param: v.pipe(v.nullable(v.string()), v.description('Dotted path of the offending field or parameter (`messages.0.role`), or null.')),
});

/** `{error: Error}`: every error response except on `/v1/messages`. */
export const errorResponseSchema = v.object({ error: errorObjectSchema });

/** Anthropic's envelope, used on `/v1/messages`: `error.type` in Anthropic's vocabulary, `code` the gateway's. */
export const anthropicErrorResponseSchema = v.object({
  type: v.literal('error'),
  error: v.object({
    type: v.pipe(v.string(), v.description('Anthropic error type for the status (`invalid_request_error`, `authentication_error`, `overloaded_error`, ...).')),
    message: v.string(),
    code: v.string(),
    param: v.nullable(v.string()),
  }),
  request_id: v.nullable(v.string()),
});

/** What each error status means (spec document 1 §Errors, triggers). */
export const errorStatusDescriptions: Readonly<Record<ErrorStatus, string>> = {
  400: 'Invalid request: a parameter is missing, malformed or out of range; `param` names it.',
  401: 'Missing, invalid, expired or revoked credential: the API key, or the dashboard session where the operation takes one.',
  402: 'Token quota or monthly budget exceeded.',
  403: 'The key lacks the scope or role this operation needs, or touches another organisation; for a session: its assurance is too low, or the CSRF token or Origin is refused.',
  404: 'No such resource (model, organisation, key, tool, ...).',
  405: 'Method not allowed on this path.',
  409: 'Conflicts with an existing resource.',
  413: 'The body (or uploaded file) is above the size limit.',
  422: 'Governance blocked a tool call.',
  426: 'A WebSocket endpoint asked without the upgrade: connect with a WebSocket client.',
  429: 'Rate limited (tenant or upstream); `retry-after` says when to try again.',
  500: 'Internal failure, or no provider key configured for what was asked.',
  502: 'The upstream provider failed.',
  503: 'Circuit breaker open, or a dependency is not ready; may carry `retry-after`.',
  504: 'The upstream provider timed out.',
};

/** Component names of the error bodies and responses per envelope. */
export const errorComponentPrefix: Readonly<Record<ErrorFormat, string>> = { openai: 'Error', anthropic: 'AnthropicError' };
