import type { RouteRegistry } from '@svc/http-kit';
import { defineRoute, jsonResponse, publicAccess } from '@svc/openapi';
import type { ControlPlaneDeps } from '../deps.js';
import type { ControlEnv } from '../env.js';
import { setSessionCookie } from '../session-cookie.js';
import { checkOrigin } from '../session.js';
import { clientAddress, validate } from '@svc/http-kit';
import { loginBeginSchema, loginCompleteSchema, sessionToWire } from './auth-wire.js';
import { readJson } from '../read-json.js';

const tags = ['Dashboard sign-in'];
const origin = "A browser request from another site (an `Origin` other than the dashboard's) is refused with 403.";

export const loginBeginRoute = defineRoute({
  method: 'post',
  path: '/v1/auth/login/begin',
  operationId: 'beginPasskeyLogin',
  summary: 'Start a passkey sign-in: a WebAuthn challenge',
  description: `Every well-formed e-mail gets a fresh challenge of the same shape (no account enumeration). Too many starts from one address or for one e-mail are 429 with \`retry-after\`. ${origin}`,
  tags,
  auth: publicAccess,
  body: { schema: loginBeginSchema, name: 'LoginBeginRequest' },
  responses: { 200: jsonResponse('`{object: "challenge", public_key}`: the options for `navigator.credentials.get()`.') },
  errors: [400, 403, 413, 429],
});

export const loginCompleteRoute = defineRoute({
  method: 'post',
  path: '/v1/auth/login/complete',
  operationId: 'completePasskeyLogin',
  summary: 'Finish a passkey sign-in: an AAL2 session',
  description: `Verifies the assertion (\`PublicKeyCredential.toJSON()\`) and starts the session in an HttpOnly, SameSite=Strict cookie (Secure on https). A disabled user is refused; repeated failures from one address or with one credential are 429 with \`retry-after\`. ${origin}`,
  tags,
  auth: publicAccess,
  body: { schema: loginCompleteSchema, name: 'LoginCompleteRequest' },
  responses: {
    200: jsonResponse('`LoginCompleteResponse`: `{object: "session", aal, method, created_at, expires_at, csrf_token, user}` (never the token).', {
      'set-cookie': 'The session cookie.',
    }),
  },
  errors: [400, 401, 403, 413, 429],
});

/**
 * Passkey sign-in (spec document 2 `/login/begin`, `/login/complete`; public). `begin` answers
 * every well-formed e-mail with a fresh challenge of the same shape (no account enumeration);
 * `complete` verifies the assertion and starts an AAL2 session in an HttpOnly cookie.
 */
export function registerAuthLogin(routes: RouteRegistry<ControlEnv>, deps: ControlPlaneDeps): void {
  routes.add(loginBeginRoute, async (c) => {
    checkOrigin(c, deps);
    const body = validate(loginBeginSchema, await readJson(c, deps.maxBodyBytes));
    const options = await deps.dashboardAuth.passkeys.loginOptions(body.email, clientAddress(c, deps.trustedProxies));
    return c.json({ object: 'challenge', public_key: options });
  });

  routes.add(loginCompleteRoute, async (c) => {
    checkOrigin(c, deps);
    const body = validate(loginCompleteSchema, await readJson(c, deps.maxBodyBytes));
    const { user, passkey } = await deps.dashboardAuth.passkeys.verifyLogin(body.response, clientAddress(c, deps.trustedProxies));
    const { token, session } = await deps.dashboardAuth.sessions.create({ userId: user.id, aal: 'aal2', method: 'passkey', passkeyId: passkey.id, generation: user.sessionGeneration });
    setSessionCookie(c, deps.dashboardAuth.rp, token, session);
    return c.json(sessionToWire(session, user));
  });
}
