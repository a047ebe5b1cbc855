import { readCredential } from '@svc/auth';
import { type Caller, requestId } from '@svc/core';
import { clientAddress } from '@svc/http-kit';
import type { Context } from 'hono';
import type { ControlPlaneDeps } from './deps.js';
import type { ControlEnv } from './env.js';

/**
 * Resolves the API key of a Bearer operation (401 as the spec's error table says) and keeps
 * `caller` and `requestId` on the context. The route registry runs it for every operation that
 * declares an API key and checks the declared scope or role on the caller it returns.
 */
export function authenticateKey(deps: Pick<ControlPlaneDeps, 'authenticator' | 'trustedProxies'>): (c: Context<ControlEnv>) => Promise<Caller> {
  return async (c) => {
    c.set('requestId', requestId());
    const caller = await deps.authenticator.authenticate(readCredential(c.req.header('authorization')), () => clientAddress(c, deps.trustedProxies));
    c.set('caller', caller);
    return caller;
  };
}
