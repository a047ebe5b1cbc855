import type { DashboardSession, RelyingParty } from '@svc/auth';
import type { Context } from 'hono';
import { deleteCookie, setCookie } from 'hono/cookie';

/** Sets the session cookie: HttpOnly, SameSite=Strict, Path=/, Secure on https origins (its name then carries `__Host-`). */
export function setSessionCookie(c: Context, rp: RelyingParty, token: string, session: DashboardSession): void {
  setCookie(c, rp.cookieName, token, {
    httpOnly: true,
    secure: rp.secureCookies,
    sameSite: 'Strict',
    path: '/',
    maxAge: Math.max(1, Math.floor((session.expiresAt - session.createdAt) / 1000)),
  });
}

export function clearSessionCookie(c: Context, rp: RelyingParty): void {
  deleteCookie(c, rp.cookieName, { path: '/', secure: rp.secureCookies });
}
