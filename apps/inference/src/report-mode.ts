import { resolveIntelligenceMode, resolveVoiceMode } from '@svc/pipeline';
import type { Context, MiddlewareHandler } from 'hono';
import { readHeader, responseHeader, setResponseHeader } from '@svc/http-kit';
import type { AppEnv } from './env.js';

const MODE_HEADER = 'x-svc-intelligence-mode';

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
 * After the handler (or the error mapper) answered, a response without `X-Svc-Intelligence-Mode`
 * (spec: on every response) gets the mode `resolve` names, if any. A mode `resolve` cannot name (an
 * invalid header: its 400 says so) or sealed headers (an upgrade) leave the response as it is.
 */
function modeHeaderAfter(resolve: (c: Context<AppEnv>) => string | undefined): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    if (responseHeader(c, MODE_HEADER) !== null) return;
    try {
      const mode = c.get('exchange')?.mode ?? resolve(c);
      if (mode) setResponseHeader(c, MODE_HEADER, mode);
    } catch {
      // An invalid mode header, or a response whose headers are sealed.
    }
  };
}

/**
 * The header on the answers of routes that run no pipeline stage (models, settings, memory search),
 * once the caller is known. The pipeline's routes set it themselves: this is kept off the chat path,
 * where touching `c.res` would build a WHATWG Response for nothing.
 */
export function reportMode(): MiddlewareHandler<AppEnv> {
  return modeHeaderAfter(resolvedMode);
}

/**
 * The header on every `/v1/voice/*` response (spec §Intelligence modes, Voice), errors included: the
 * voice mode of the request (`proxy` escalated to `cache`; the organisation's default once
 * authenticated). Registered around the voice operations (`RouteRegistry.around`), before their
 * authentication, so a 401 carries it too; an unknown `X-Intelligence-Mode` (the 400 that names it)
 * gets none.
 */
export function voiceModeHeader(): MiddlewareHandler<AppEnv> {
  return modeHeaderAfter((c) => resolveVoiceMode(readHeader(c, 'x-intelligence-mode'), c.get('caller')?.org.defaultIntelligenceMode));
}
