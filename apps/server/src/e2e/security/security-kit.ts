import { SoftAuthenticator } from '@svc/auth/test';
import { expect } from 'vitest';
import { masterKey, startGateway } from '../harness.js';

/** The dashboard origin the security tests' gateways run with (WebAuthn and `Origin` checks). */
export const dashboardOrigin = 'http://localhost:8081';

export type Gateway = Awaited<ReturnType<typeof startGateway>>;

/**
 * A gateway for the security tests: loopback is a trusted proxy, so each test can speak from an
 * address of its own with `X-Forwarded-For` (the throttles count per client address).
 */
export function startSecureGateway(env: Record<string, string> = {}): Promise<Gateway> {
  return startGateway({ SVC_DASHBOARD_ORIGIN: dashboardOrigin, SVC_TRUSTED_PROXIES: '127.0.0.1,::1', ...env });
}

/** A browser (or API client) of the control plane: its session cookie, CSRF token and address. */
export interface Browser {
  cookie?: string;
  csrf?: string;
  address?: string;
}

export interface Answer {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON answers
  json: Record<string, any>;
}

/** One control-plane call as a browser on the dashboard's origin would make it (or with a Bearer key). */
export async function call(gateway: Gateway, method: string, path: string, options: { body?: unknown; browser?: Browser; bearer?: string; address?: string } = {}): Promise<Answer> {
  const headers: Record<string, string> = { 'content-type': 'application/json', origin: dashboardOrigin };
  const address = options.address ?? options.browser?.address;
  if (address) headers['x-forwarded-for'] = address;
  if (options.browser?.cookie) headers.cookie = options.browser.cookie;
  if (options.browser?.csrf) headers['x-csrf-token'] = options.browser.csrf;
  if (options.bearer) headers.authorization = `Bearer ${options.bearer}`;
  const response = await fetch(`${gateway.controlUrl}${path}`, { method, headers, ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }), redirect: 'manual' });
  const setCookie = response.headers.get('set-cookie');
  if (options.browser && setCookie) options.browser.cookie = setCookie.split(';')[0];
  const text = await response.text();
  const json = text.startsWith('{') ? (JSON.parse(text) as Answer['json']) : {};
  if (options.browser && typeof json.csrf_token === 'string') options.browser.csrf = json.csrf_token;
  return { status: response.status, headers: response.headers, json };
}

/** A new organisation (admin API, with `adminKey`). */
export async function newOrg(gateway: Gateway, name: string, adminKey = masterKey): Promise<string> {
  const created = await call(gateway, 'POST', '/v1/admin/orgs', { bearer: adminKey, body: { name: `${name}-${Math.random().toString(36).slice(2)}` } });
  expect(created.status).toBe(201);
  return created.json.id as string;
}

/** A dashboard user created through the admin API, enrolled with a registered passkey, then signed in (AAL2). */
export async function passkeyUser(gateway: Gateway, orgId: string, role: 'admin' | 'member' = 'member', adminKey = masterKey) {
  const email = `person-${Math.random().toString(36).slice(2)}@example.com`;
  const created = await call(gateway, 'POST', '/v1/admin/users', { bearer: adminKey, body: { email, org_id: orgId, role } });
  expect(created.status).toBe(201);
  const token = new URL(created.json.enrollment_url as string).hash.replace('#token=', '');
  const enrolling: Browser = {};
  expect((await call(gateway, 'POST', '/v1/auth/enroll', { browser: enrolling, body: { token } })).status).toBe(200);
  const device = new SoftAuthenticator(dashboardOrigin);
  const begin = await call(gateway, 'POST', '/v1/auth/passkeys/register/begin', { browser: enrolling });
  const registered = await call(gateway, 'POST', '/v1/auth/passkeys/register/complete', { browser: enrolling, body: { name: 'Laptop', response: device.register(begin.json.public_key) } });
  expect(registered.status).toBe(201);
  await call(gateway, 'POST', '/v1/auth/logout', { browser: enrolling });
  return { id: created.json.id as string, email, device, passkeyId: registered.json.id as string };
}

/** Signs `user` in with their passkey: a browser holding an AAL2 session. */
export async function signIn(gateway: Gateway, user: { email: string; device: SoftAuthenticator }, address?: string): Promise<Browser> {
  const browser: Browser = { ...(address ? { address } : {}) };
  const begin = await call(gateway, 'POST', '/v1/auth/login/begin', { browser, body: { email: user.email } });
  expect(begin.status).toBe(200);
  const complete = await call(gateway, 'POST', '/v1/auth/login/complete', { browser, body: { response: user.device.authenticate(begin.json.public_key) } });
  expect(complete.status).toBe(200);
  return browser;
}

/** A 429 in the spec's error shape with a whole-seconds `retry-after`. */
export function expectThrottled(answer: Answer, what: string): void {
  expect(answer.status, what).toBe(429);
  expect(answer.json.error, what).toMatchObject({ type: 'rate_limit_error', code: 'rate_limit_exceeded' });
  expect(Number(answer.headers.get('retry-after')), what).toBeGreaterThanOrEqual(1);
}
