import type { Context } from 'hono';
import type { ControlPlaneDeps } from './deps.js';
import type { ControlEnv } from './env.js';
import { clearSessionCookie, setSessionCookie } from './session-cookie.js';

/**
 * Removes one of the signed-in user's passkeys and ends every session of the user, on every
 * instance (a lost device's too). The browser that asked carries on in a re-issued session, unless
 * it signed in with that very passkey or holds its session as a Bearer token: then it is signed out.
 * 404 when the user has no such passkey.
 */
export async function removePasskey(c: Context<ControlEnv>, deps: Pick<ControlPlaneDeps, 'dashboardAuth'>, passkeyId: string): Promise<{ signedOut: boolean }> {
  const { token, session, user, via } = c.get('dashboard');
  const generation = await deps.dashboardAuth.accounts.removePasskey(user.id, passkeyId);
  if (session.passkeyId === passkeyId || via === 'bearer') {
    await deps.dashboardAuth.sessions.revoke(token);
    if (via === 'cookie') clearSessionCookie(c, deps.dashboardAuth.rp);
    return { signedOut: true };
  }
  const next = await deps.dashboardAuth.sessions.reissue(token, session, generation);
  setSessionCookie(c, deps.dashboardAuth.rp, next.token, next.session);
  return { signedOut: false };
}
