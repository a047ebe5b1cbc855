import { readCredential } from '@svc/auth';
import { requestId as newRequestId } from '@svc/core';
import type { MiddlewareHandler } from 'hono';
import type { InferenceDeps } from './deps.js';
import { readHeader } from './node-request.js';
import type { AppEnv } from './env.js';

/** Stage 1: resolves the caller from `Authorization: Bearer` (or `x-api-key`). */
export function authenticate(deps: InferenceDeps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    c.set('startedAt', performance.now());
    c.set('requestId', newRequestId());
    const caller = await deps.authenticator.authenticate(readCredential(readHeader(c, 'authorization'), readHeader(c, 'x-api-key')));
    c.set('caller', caller);
    await next();
  };
}
