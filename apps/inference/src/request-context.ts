import type { RequestContext } from '@svc/pipeline';
import type { Context } from 'hono';
import type { AppEnv } from './env.js';
import { onClientGone, readHeader } from './node-request.js';

/**
 * The pipeline's context of an authenticated request: its caller, id and start, the
 * `X-Intelligence-Mode` header, and a signal aborted when the client goes away.
 */
export function requestContext(c: Context<AppEnv>): RequestContext {
  const abort = new AbortController();
  onClientGone(c, () => abort.abort());
  return {
    caller: c.get('caller'),
    requestId: c.get('requestId'),
    startedAt: c.get('startedAt'),
    signal: abort.signal,
    intelligenceModeHeader: readHeader(c, 'x-intelligence-mode') ?? null,
    access: c.get('access'),
    trace: c.get('trace'),
  };
}
