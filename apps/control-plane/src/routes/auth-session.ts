import { GatewayError } from '@svc/core';
import type { RouteRegistry } from '@svc/http-kit';
import { defineRoute, jsonResponse, publicAccess, session } from '@svc/openapi';
import * as v from 'valibot';
import type { ControlPlaneDeps } from '../deps.js';
import type { ControlEnv } from '../env.js';
import { clearSessionCookie, setSessionCookie } from '../session-cookie.js';
import { checkOrigin } from '../session.js';
import { clientAddress, validate } from '@svc/http-kit';
import { sessionToWire } from './auth-wire.js';
import { readJson } from '../read-json.js';

const enrollSchema = v.object({ token: v.pipe(v.string('is required'), v.minLength(1, 'is required'), v.maxLength(200, 'too long')) });

const tags = ['Dashboard sign-in'];
const sessionAnswer = '`{object: "session", aal, method, created_at, expires_at, csrf_token, user}` (never the token).';

export const getSessionRoute = defineRoute({
  method: 'get',
  path: '/v1/auth/session',
  operationId: 'getDashboardSession',
  summary: 'Who is signed in',
  tags,
  auth: session('any'),
  responses: { 200: jsonResponse(sessionAnswer) },
});

export const logoutRoute = defineRoute({
  method: 'post',
  path: '/v1/auth/logout',
  operationId: 'signOut',
  summary: 'Sign out (the session is gone on every instance)',
  tags,
  auth: session('any'),
  responses: { 200: jsonResponse('`{object: "session", signed_out: true}`; the cookie is cleared.') },
});

export const enrollRoute = defineRoute({
  method: 'post',
  path: '/v1/auth/enroll',
  operationId: 'redeemEnrollment',
  summary: 'Redeem an enrollment link: an AAL1 session to register a passkey',
  description:
    "The link's token travels in the URL fragment (never sent to a server) and is posted here by the enrollment page. An unknown, expired or used token (or a disabled user's) is 401 `invalid_enrollment`; repeated ones from one address are 429 with `retry-after`. A browser request from another site is refused with 403.",
  tags,
  auth: publicAccess,
  body: { schema: enrollSchema, name: 'EnrollRequest' },
  responses: { 200: jsonResponse(sessionAnswer, { 'set-cookie': 'The (enrollment) session cookie.' }) },
  errors: [400, 401, 403, 413, 429],
});

/** The dashboard session: who is signed in, sign-out (everywhere: the session is gone from the shared kv), and redeeming an enrollment link. */
export function registerAuthSession(routes: RouteRegistry<ControlEnv>, deps: ControlPlaneDeps): void {
  routes.add(getSessionRoute, (c) => {
    const { session, user } = c.get('dashboard');
    return c.json(sessionToWire(session, user));
  });

  routes.add(logoutRoute, async (c) => {
    await deps.dashboardAuth.sessions.revoke(c.get('dashboard').token);
    clearSessionCookie(c, deps.dashboardAuth.rp);
    return c.json({ object: 'session', signed_out: true });
  });

  // The link's token travels in the URL fragment (never sent to a server or logged) and is posted here by the enrollment page.
  routes.add(enrollRoute, async (c) => {
    checkOrigin(c, deps);
    const body = validate(enrollSchema, await readJson(c, deps.maxBodyBytes));
    const user = await deps.dashboardAuth.accounts.redeemEnrollment(body.token, clientAddress(c, deps.trustedProxies));
    if (!user) {
      throw new GatewayError({ status: 401, type: 'authentication_error', code: 'invalid_enrollment', message: 'This enrollment link is unknown, expired or already used: ask an administrator for a new one.', param: 'token' });
    }
    const { token, session } = await deps.dashboardAuth.sessions.create({ userId: user.id, aal: 'aal1', method: 'enrollment', generation: user.sessionGeneration });
    setSessionCookie(c, deps.dashboardAuth.rp, token, session);
    return c.json(sessionToWire(session, user));
  });
}
