import type { DashboardSession, DashboardUserRecord } from '@svc/auth';
import type { Caller } from '@svc/core';

export interface ControlEnv {
  Variables: {
    requestId: string;
    caller: Caller;
    /** The signed-in dashboard user (dashboard pages and /v1/auth/*). */
    dashboard: SessionContext;
  };
}

/** The signed-in dashboard user of a request. */
export interface SessionContext {
  /** The session token (cookie value or bearer). */
  token: string;
  session: DashboardSession;
  /** Re-read on every request: a role or org change applies at once. */
  user: DashboardUserRecord;
  /** A bearer session needs no CSRF token (browsers never attach it on their own). */
  via: 'cookie' | 'bearer';
}
