import { readCredential } from '@svc/auth';
import { type Caller, requestId as newRequestId } from '@svc/core';
import type { Context } from 'hono';
import { clientAddress, readHeader } from '@svc/http-kit';
import type { InferenceDeps } from './deps.js';
import type { AppEnv } from './env.js';

/**
 * Stage 1: resolves the caller from `Authorization: Bearer` (or `x-api-key`) and keeps it, the
 * request id and the start time on the context. The route registry runs it for every route that
 * declares an API key and checks the declared scope or role on the caller it returns. Wrong keys
 * are throttled per client address and key prefix (429 with `retry-after`).
 */
export function authenticate(deps: InferenceDeps): (c: Context<AppEnv>) => Promise<Caller> {
  return async (c) => {
    c.set('startedAt', performance.now());
    c.set('requestId', newRequestId());
    // The address is read only when the key is wrong or something is throttled (see Authenticator).
    const caller = await deps.authenticator.authenticate(readCredential(readHeader(c, 'authorization'), readHeader(c, 'x-api-key')), () => clientAddress(c, deps.trustedProxies));
    c.set('caller', caller);
    return caller;
  };
}
