import type { Context, MiddlewareHandler } from 'hono';
import { setResponseHeader } from './plain-answer.js';

function setDefaults(c: Context): void {
  setResponseHeader(c, 'x-content-type-options', 'nosniff', true);
  setResponseHeader(c, 'cache-control', 'no-store', true);
}

/**
 * Headers every API answer carries, errors included: `x-content-type-options: nosniff`, and
 * `cache-control: no-store` unless the route chose its own caching (SSE's `no-cache`, image
 * files, discovery documents, the dashboard's static assets). Answers hold secrets (a new key's
 * secret) and per-tenant data that no shared cache may keep.
 */
export function apiHeaders(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    try {
      setDefaults(c);
    } catch {
      // A response with immutable headers (passed through from fetch): copy it once.
      c.res = new Response(c.res.body, c.res);
      setDefaults(c);
    }
  };
}
