import { GatewayError } from '@svc/core';
import { readJson } from '@svc/inference';
import type { Hono } from 'hono';
import * as v from 'valibot';
import type { ControlPlaneDeps } from '../deps.js';
import type { ControlEnv } from '../env.js';
import { clearSessionCookie, setSessionCookie } from '../session-cookie.js';
import { checkOrigin, requireSession } from '../session.js';
import { validate } from '../validate.js';
import { sessionToWire } from './auth-wire.js';

const enrollSchema = v.object({ token: v.pipe(v.string('is required'), v.minLength(1, 'is required'), v.maxLength(200, 'too long')) });

/** The dashboard session: who is signed in, sign-out (everywhere: the session is gone from the shared kv), and redeeming an enrollment link. */
export function registerAuthSession(app: Hono<ControlEnv>, deps: ControlPlaneDeps): void {
  app.get('/v1/auth/session', requireSession(deps, { aal: 'any' }), (c) => {
    const { session, user } = c.get('dashboard');
    return c.json(sessionToWire(session, user));
  });

  app.post('/v1/auth/logout', requireSession(deps, { aal: 'any' }), async (c) => {
    await deps.dashboardAuth.sessions.revoke(c.get('dashboard').token);
    clearSessionCookie(c, deps.dashboardAuth.rp);
    return c.json({ object: 'session', signed_out: true });
  });

  // The link's token travels in the URL fragment (never sent to a server or logged) and is posted here by the enrollment page.
  app.post('/v1/auth/enroll', async (c) => {
    checkOrigin(c, deps);
    const body = validate(enrollSchema, await readJson(c, deps.maxBodyBytes));
    const user = await deps.dashboardAuth.accounts.redeemEnrollment(body.token);
    if (!user) {
      throw new GatewayError({ status: 401, type: 'authentication_error', code: 'invalid_enrollment', message: 'This enrollment link is unknown, expired or already used: ask an administrator for a new one.', param: 'token' });
    }
    const { token, session } = await deps.dashboardAuth.sessions.create({ userId: user.id, aal: 'aal1', method: 'enrollment' });
    setSessionCookie(c, deps.dashboardAuth.rp, token, session);
    return c.json(sessionToWire(session, user));
  });
}
