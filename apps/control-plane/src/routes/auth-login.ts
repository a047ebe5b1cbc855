import { readJson } from '@svc/inference';
import type { Hono } from 'hono';
import type { ControlPlaneDeps } from '../deps.js';
import type { ControlEnv } from '../env.js';
import { setSessionCookie } from '../session-cookie.js';
import { checkOrigin } from '../session.js';
import { validate } from '../validate.js';
import { loginBeginSchema, loginCompleteSchema, sessionToWire } from './auth-wire.js';

/**
 * Passkey sign-in (spec document 2 `/login/begin`, `/login/complete`; public). `begin` answers
 * every well-formed e-mail with a fresh challenge of the same shape (no account enumeration);
 * `complete` verifies the assertion and starts an AAL2 session in an HttpOnly cookie.
 */
export function registerAuthLogin(app: Hono<ControlEnv>, deps: ControlPlaneDeps): void {
  app.post('/v1/auth/login/begin', async (c) => {
    checkOrigin(c, deps);
    const body = validate(loginBeginSchema, await readJson(c, deps.maxBodyBytes));
    const options = await deps.dashboardAuth.passkeys.loginOptions(body.email);
    return c.json({ object: 'challenge', public_key: options });
  });

  app.post('/v1/auth/login/complete', async (c) => {
    checkOrigin(c, deps);
    const body = validate(loginCompleteSchema, await readJson(c, deps.maxBodyBytes));
    const { user, passkey } = await deps.dashboardAuth.passkeys.verifyLogin(body.response);
    const { token, session } = await deps.dashboardAuth.sessions.create({ userId: user.id, aal: 'aal2', method: 'passkey', passkeyId: passkey.id });
    setSessionCookie(c, deps.dashboardAuth.rp, token, session);
    return c.json(sessionToWire(session, user));
  });
}
