import { toGatewayError } from '@svc/core';
import { encodeMessagesError } from '@svc/protocol';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './env.js';

/**
 * Re-encodes the app's error response (already built by `onError`, with `x-error-id` and
 * `retry-after`) in the Anthropic envelope `{type: "error", error: {...}, request_id}` for routes
 * that declare `errorFormat: 'anthropic'`; the status stays the spec's. It runs before the
 * route's authentication, so auth failures use the envelope too. The SDKs read `request-id` as
 * the request id.
 */
export function anthropicErrors(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    if (c.error === undefined) return;
    const error = toGatewayError(c.error);
    const requestId = c.get('requestId') as string | undefined;
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (requestId) headers['request-id'] = requestId;
    c.res = new Response(JSON.stringify(encodeMessagesError(error, requestId)), { status: error.status, headers });
  };
}
