import type { MiddlewareHandler } from 'hono';

/**
 * Headers every API answer carries, errors included: `x-content-type-options: nosniff`, and
 * `cache-control: no-store` unless the route chose its own caching (SSE's `no-cache`, image
 * files, discovery documents, the dashboard's static assets). Answers hold secrets (a new key's
 * secret) and per-tenant data that no shared cache may keep.
 */
export function apiHeaders(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const set = (headers: Headers) => {
      if (!headers.has('x-content-type-options')) headers.set('x-content-type-options', 'nosniff');
      if (!headers.has('cache-control')) headers.set('cache-control', 'no-store');
    };
    try {
      set(c.res.headers);
    } catch {
      // A response with immutable headers (passed through from fetch): copy it once.
      c.res = new Response(c.res.body, c.res);
      set(c.res.headers);
    }
  };
}
