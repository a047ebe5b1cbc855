import type { SpanAttributes, TraceSpan, Tracing } from '@svc/telemetry';
import type { Context } from 'hono';
import { readHeader } from './node-request.js';

/** A request's root (SERVER) span, a child of the caller's `traceparent` when it sent a valid one. */
export function startRequestSpan(tracing: Tracing, c: Context): TraceSpan {
  return tracing.request(c.req.method, (name) => readHeader(c, name), { 'http.request.method': c.req.method });
}

/**
 * Ends a request's span once its answer is known: named `METHOD /route/pattern`, with the HTTP
 * semantic conventions' route and status, the request id and the caller's organisation, and
 * `more` (an app's own attributes); a 5xx ends it in error.
 */
export function endRequestSpan(span: TraceSpan, c: Context, more?: SpanAttributes): void {
  const { method, routePath: route } = c.req;
  const status = c.res.status;
  const requestId: unknown = c.get('requestId');
  const caller: { org?: { id?: unknown } } | undefined = c.get('caller');
  span.rename(`${method} ${route}`);
  const attributes: SpanAttributes = { 'http.route': route, 'http.response.status_code': status, ...more };
  if (typeof requestId === 'string') attributes['svc.request_id'] = requestId;
  if (typeof caller?.org?.id === 'string') attributes['svc.org_id'] = caller.org.id;
  span.set(attributes);
  span.end(status >= 500 ? new Error(`HTTP ${status}`) : undefined);
}
