import { readCredential } from '@svc/auth';
import { type Caller, requestId } from '@svc/core';
import type { MiddlewareHandler } from 'hono';
import type { ControlPlaneDeps } from './deps.js';
import type { ControlEnv } from './env.js';

/**
 * Middleware of Bearer operations: authenticates the key (401 as the spec's error table says),
 * runs `check` (a scope or the admin role: 403), and sets `caller` and `requestId`.
 */
export function bearer(deps: Pick<ControlPlaneDeps, 'authenticator'>, check?: (caller: Caller) => void): MiddlewareHandler<ControlEnv> {
  return async (c, next) => {
    c.set('requestId', requestId());
    const caller = await deps.authenticator.authenticate(readCredential(c.req.header('authorization')));
    check?.(caller);
    c.set('caller', caller);
    await next();
  };
}
