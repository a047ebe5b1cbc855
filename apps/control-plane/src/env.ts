import type { Caller } from '@svc/core';
import type { SessionContext } from './session.js';

export interface ControlEnv {
  Variables: {
    requestId: string;
    caller: Caller;
    /** The signed-in dashboard user (dashboard pages and /v1/auth/*). */
    dashboard: SessionContext;
  };
}
