import { readCredential } from '@svc/auth';
import { type Caller, requestId as newRequestId } from '@svc/core';
import type { Context } from 'hono';
import { readHeader } from '@svc/http-kit';
import type { InferenceDeps } from './deps.js';
import type { AppEnv } from './env.js';

/**
 * Stage 1: resolves the caller from `Authorization: Bearer` (or `x-api-key`) and keeps it, the
 * request id and the start time on the context. The route registry runs it for every route that
 * declares an API key and checks the declared scope or role on the caller it returns.
 */
export function authenticate(deps: InferenceDeps): (c: Context<AppEnv>) => Promise<Caller> {
  return async (c) => {
    c.set('startedAt', performance.now());
    c.set('requestId', newRequestId());
    const caller = await deps.authenticator.authenticate(readCredential(readHeader(c, 'authorization'), readHeader(c, 'x-api-key')));
    c.set('caller', caller);
    return caller;
  };
}
