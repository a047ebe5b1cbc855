import type { Metrics } from '@svc/telemetry';
import type { MiddlewareHandler } from 'hono';
import { onResponseClosed } from './node-request.js';
import { responseHeader } from './plain-answer.js';

/**
 * Counts every request by route pattern (bounded cardinality), status, served model and cache
 * outcome, and observes its end-to-end duration: for streamed bodies (SSE, audio) until the
 * last byte is written or the client leaves (on Node; elsewhere when the headers go out).
 * Series are found by map lookups, no label string is built per request.
 */
export function recordRequest(metrics: Metrics): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    await next();
    const route = c.req.routePath;
    const status = String(c.res.status);
    metrics.requests.series(route, status, responseHeader(c, 'x-svc-model') ?? '', responseHeader(c, 'x-svc-provider') ?? '', responseHeader(c, 'x-svc-cache-hit') ?? '').inc();
    const duration = metrics.requestDuration.series(route, status);
    const type = responseHeader(c, 'content-type');
    if (type !== null && (type.startsWith('text/event-stream') || type.startsWith('audio/')) && onResponseClosed(c, () => duration.observe((performance.now() - started) / 1000))) return;
    duration.observe((performance.now() - started) / 1000);
  };
}
