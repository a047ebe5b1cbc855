import { resolveIntelligenceMode } from '@svc/pipeline';
import type { Context, MiddlewareHandler } from 'hono';
import { readHeader } from '@svc/http-kit';
import type { AppEnv } from './env.js';

/**
 * The intelligence mode a request of an authenticated caller resolves to without a body:
 * `X-Intelligence-Mode` > the organisation's default > `full`. Undefined before authentication or
 * when the header is not a mode (that request is answered 400 by whoever reads it).
 */
export function resolvedMode(c: Context<AppEnv>): string | undefined {
  const caller = c.get('caller');
  if (!caller) return undefined;
  try {
    return resolveIntelligenceMode(readHeader(c, 'x-intelligence-mode') ?? null, undefined, caller.org.defaultIntelligenceMode);
  } catch {
    return undefined;
  }
}

/**
 * Adds `X-Svc-Intelligence-Mode` (spec: on every response) to the answers of routes that run no
 * pipeline stage (models, settings, memory search). The pipeline's routes set it themselves: this
 * is kept off the chat path, where touching `c.res` would build a WHATWG Response for nothing.
 */
export function reportMode(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    if (c.res.headers.has('x-svc-intelligence-mode')) return;
    const mode = resolvedMode(c);
    if (mode) c.res.headers.set('x-svc-intelligence-mode', mode);
  };
}
