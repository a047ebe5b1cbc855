import type { Metrics } from '@svc/telemetry';
import type { MiddlewareHandler } from 'hono';

/**
 * Counts every request by route pattern (bounded cardinality), status, served model and cache
 * outcome, and observes its duration. For streams the duration ends when the headers go out;
 * provider time and time to first token are measured by the pipeline.
 */
export function recordRequest(metrics: Metrics): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    await next();
    const route = c.req.routePath;
    const status = String(c.res.status);
    const headers = c.res.headers;
    metrics.requests.inc({ route, status, model: headers.get('x-svc-model') ?? '', provider: headers.get('x-svc-provider') ?? '', cache: headers.get('x-svc-cache-hit') ?? '' });
    metrics.requestDuration.observe({ route, status }, (performance.now() - started) / 1000);
  };
}
