import type { Caller } from '@svc/core';
import { resolveVoiceMode } from '@svc/pipeline';
import type { MiddlewareHandler } from 'hono';
import { readHeader } from '@svc/http-kit';
import type { AppEnv } from './env.js';

/**
 * Every `/v1/voice/*` response carries `X-Svc-Intelligence-Mode` (spec §Intelligence modes,
 * Voice), errors included: after the handler (or the error mapper) answered, a response without
 * it gets the voice mode of the request (`proxy` escalated to `cache`; the organisation's default
 * once authenticated). Registered around the voice operations (`RouteRegistry.around`), before
 * their authentication, so a 401 carries it too; an unknown `X-Intelligence-Mode` (the 400 that
 * names it) gets none.
 */
export function voiceModeHeader(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    if (c.res.headers.has('x-svc-intelligence-mode')) return;
    const caller = c.get('caller') as Caller | undefined;
    try {
      c.res.headers.set('x-svc-intelligence-mode', resolveVoiceMode(readHeader(c, 'x-intelligence-mode'), caller?.org.defaultIntelligenceMode));
    } catch {
      // An invalid mode header (its 400 says so), or a response whose headers are sealed (an upgrade).
    }
  };
}
