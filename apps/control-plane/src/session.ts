import { assuranceTooLow, csrfRejected, csrfTokenMatches, readCredential, sessionHolds, sessionRequired } from '@svc/auth';
import type { Context, MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import type { ControlPlaneDeps } from './deps.js';
import type { ControlEnv, SessionContext } from './env.js';

const unsafeMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Refuses a browser request sent from another site: an `Origin` other than the dashboard's, or
 * (older browsers without Origin) `Sec-Fetch-Site: cross-site`. Requests without either header
 * are not from a browser page and pass.
 */
export function checkOrigin(c: Context, deps: Pick<ControlPlaneDeps, 'dashboardAuth'>): void {
  const origin = c.req.header('origin');
  if (origin !== undefined && origin !== deps.dashboardAuth.rp.origin) throw csrfRejected(`Requests from ${origin} are not accepted; the dashboard is served at ${deps.dashboardAuth.rp.origin}.`);
  if (origin === undefined && c.req.header('sec-fetch-site') === 'cross-site') throw csrfRejected('Cross-site requests are not accepted.');
}

/** The session of a request, from the cookie or `Authorization: Bearer <session token>`; undefined when none is live. */
export async function readSession(c: Context, deps: Pick<ControlPlaneDeps, 'dashboardAuth' | 'db'>): Promise<SessionContext | undefined> {
  const bearer = readCredential(c.req.header('authorization'));
  const token = bearer ?? getCookie(c, deps.dashboardAuth.rp.cookieName);
  if (!token) return undefined;
  if (bearer?.startsWith('sk-svc-')) throw sessionRequired('An API key is not a dashboard user: send a dashboard session (sign in with a passkey).');
  const session = await deps.dashboardAuth.sessions.get(token);
  if (!session) return undefined;
  const user = await deps.db.dashboardUsers.get(session.userId);
  // Deleted or disabled users, and sessions a newer generation ended, are signed out here, on every instance.
  if (!user || !sessionHolds(session, user)) return undefined;
  return { token, session, user, via: bearer ? 'bearer' : 'cookie' };
}

/** The CSRF token a request presents: `x-csrf-token`, or the `_csrf` field of a form body. */
async function presentedCsrf(c: Context): Promise<string | undefined> {
  const header = c.req.header('x-csrf-token');
  if (header) return header;
  const type = c.req.header('content-type') ?? '';
  if (!type.startsWith('application/x-www-form-urlencoded') && !type.startsWith('multipart/form-data')) return undefined;
  const form = await c.req.parseBody();
  const field = form._csrf;
  return typeof field === 'string' ? field : undefined;
}

export interface SessionRequirement {
  /** `aal2` (default): a passkey sign-in; `any`: an enrollment session will do (registering a passkey). */
  aal?: 'aal2' | 'any';
  /** What to do without a session: 401 JSON (API) or a redirect to the sign-in page (pages). */
  onMissing?: 'error' | 'redirect';
}

/**
 * Requires a dashboard session (401 otherwise), at AAL2 unless told, and on state-changing
 * cookie requests the session's CSRF token and a same-origin `Origin` (403 otherwise).
 */
export function requireSession(deps: Pick<ControlPlaneDeps, 'dashboardAuth' | 'db'>, requirement: SessionRequirement = {}): MiddlewareHandler<ControlEnv> {
  return async (c, next) => {
    const context = await readSession(c, deps);
    if (!context) {
      if (requirement.onMissing === 'redirect') return c.redirect('/dashboard/login', 303);
      throw sessionRequired();
    }
    if ((requirement.aal ?? 'aal2') === 'aal2' && context.session.aal !== 'aal2') {
      if (requirement.onMissing === 'redirect' && c.req.method === 'GET') return c.redirect('/dashboard/passkeys', 303);
      throw assuranceTooLow();
    }
    if (context.via === 'cookie' && unsafeMethods.has(c.req.method)) {
      checkOrigin(c, deps);
      if (!csrfTokenMatches(context.session, await presentedCsrf(c))) throw csrfRejected();
    }
    c.set('dashboard', context);
    await next();
  };
}
