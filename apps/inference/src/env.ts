import type { Caller } from '@svc/core';

/** Hono context variables set by the middleware. */
export interface AppEnv {
  Variables: {
    requestId: string;
    caller: Caller;
    startedAt: number;
  };
}
