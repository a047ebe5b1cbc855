import { type GatewayError, errorId, notFound, toGatewayError } from '@svc/core';
import type { Context } from 'hono';
import type { Logger } from '@svc/telemetry';

/** Every error response: the spec's body, `x-error-id`, and the error's own headers (retry-after). */
export function errorResponse(error: GatewayError, requestId?: string, extra?: Record<string, string>): Response {
  const id = errorId();
  const headers: Record<string, string> = { 'content-type': 'application/json', 'x-error-id': id, ...error.headers, ...extra };
  if (requestId) {
    headers['x-request-id'] = requestId;
    headers['x-svc-request-id'] = requestId;
  }
  return new Response(JSON.stringify({ error: error.toBody() }), { status: error.status, headers });
}

/**
 * The app's single onError mapper: anything thrown becomes the spec's error shape. `headers`
 * adds response headers of the request's context (the inference app reports the resolved mode).
 */
export function onError(logger: Logger, headers?: (c: Context) => Record<string, string> | undefined) {
  return (thrown: unknown, c: Context): Response => {
    const error = toGatewayError(thrown);
    const requestId = c.get('requestId') as string | undefined;
    // An outage is one warning per request, without the stack: the cause is known and shared.
    if (error.code === 'database_unavailable' || error.code === 'kv_unavailable') logger.warn({ request_id: requestId }, error.code === 'kv_unavailable' ? 'redis unavailable' : 'database unavailable');
    else if (error.status >= 500 && error.type === 'internal_error') logger.error({ err: thrown, request_id: requestId }, 'internal error');
    return errorResponse(error, requestId, headers?.(c));
  };
}

export function notFoundHandler(c: Context): Response {
  return errorResponse(notFound(`No route for ${c.req.method} ${c.req.path}.`));
}

