import { createDashboardAuth } from '@svc/auth';
import { SoftAuthenticator } from '@svc/auth/test';
import { type Runtime, createRuntime } from '../../runtime/runtime.js';
import { parseEnv } from '../../runtime/env.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createControlPlaneApp } from '@svc/control-plane';

const master = 'sk-svc-dashboard-auth-test-master-gdVkFyWpjstoVUU3JHWN5gxF';
const origin = 'http://localhost:8081';
let runtime: Runtime;
let app: ReturnType<typeof createControlPlaneApp>;
let orgId: string;
let serial = 0;

beforeAll(async () => {
  runtime = await createRuntime(parseEnv({ SVC_DATA_DIR: 'memory://', SVC_SENTENCE_ENCODER: 'hashed', SVC_MASTER_KEY: master, SVC_MOCK_PROVIDER: '1', LOG_LEVEL: 'silent' }));
  app = createControlPlaneApp({ ...runtime, maxBodyBytes: 1024 * 1024 });
  orgId = (await runtime.db.orgs.ensure('dashboard-auth')).id;
});
afterAll(async () => {
  await runtime?.close();
});

interface Browser {
  cookie?: string;
  csrf?: string;
}

async function call(method: string, path: string, options: { body?: unknown; browser?: Browser; bearer?: string; origin?: string | null; csrf?: string | null } = {}) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (options.origin !== null) headers.origin = options.origin ?? origin;
  if (options.browser?.cookie) headers.cookie = options.browser.cookie;
  const csrf = options.csrf === undefined ? options.browser?.csrf : options.csrf;
  if (csrf) headers['x-csrf-token'] = csrf;
  if (options.bearer) headers.authorization = `Bearer ${options.bearer}`;
  const response = await app.request(path, { method, headers, ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }) });
  const setCookie = response.headers.get('set-cookie');
  if (options.browser && setCookie) options.browser.cookie = setCookie.split(';')[0];
  // biome-ignore lint/suspicious/noExplicitAny: test reads arbitrary JSON answers
  const json = (await response.json()) as Record<string, any>;
  if (options.browser && typeof json.csrf_token === 'string') options.browser.csrf = json.csrf_token;
  return { status: response.status, json, setCookie };
}

/** A user created through the admin API, enrolled and holding a registered passkey, signed out. */
async function enrolledUser(role: 'admin' | 'member' = 'member') {
  serial += 1;
  const email = `user${serial}@example.com`;
  const created = await call('POST', '/v1/admin/users', { bearer: master, body: { email, org_id: orgId, role } });
  expect(created.status).toBe(201);
  const token = new URL(created.json.enrollment_url).hash.replace('#token=', '');
  const browser: Browser = {};
  expect((await call('POST', '/v1/auth/enroll', { browser, body: { token } })).json).toMatchObject({ aal: 'aal1', method: 'enrollment' });
  const device = new SoftAuthenticator(origin);
  const begin = await call('POST', '/v1/auth/passkeys/register/begin', { browser });
  const registered = await call('POST', '/v1/auth/passkeys/register/complete', { browser, body: { name: 'Laptop', response: device.register(begin.json.public_key) } });
  expect(registered.status).toBe(201);
  await call('POST', '/v1/auth/logout', { browser });
  return { email, device, token };
}

async function signIn(email: string, device: SoftAuthenticator) {
  const browser: Browser = {};
  const begin = await call('POST', '/v1/auth/login/begin', { body: { email } });
  const complete = await call('POST', '/v1/auth/login/complete', { browser, body: { response: device.authenticate(begin.json.public_key) } });
  return { browser, complete };
}

describe('dashboard users (admin API)', () => {
  it('creates a user with a one-time enrollment link; 400/403/404/409 as it should', async () => {
    const created = await call('POST', '/v1/admin/users', { bearer: master, body: { email: 'New.Person@Example.com', org_id: orgId, role: 'admin' } });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ object: 'dashboard_user', email: 'new.person@example.com', org_id: orgId, role: 'admin' });
    expect(created.json.enrollment_url).toMatch(/^http:\/\/localhost:8081\/dashboard\/enroll#token=[\w-]{43}$/);
    expect((await call('POST', '/v1/admin/users', { bearer: master, body: { email: 'new.person@example.com', org_id: orgId } })).status).toBe(409);
    expect((await call('POST', '/v1/admin/users', { bearer: master, body: { email: 'nope', org_id: orgId } })).json.error.param).toBe('email');
    expect((await call('POST', '/v1/admin/users', { bearer: master, body: { email: 'a@b.co', org_id: orgId, role: 'owner' } })).json.error.param).toBe('role');
    expect((await call('POST', '/v1/admin/users', { bearer: master, body: { email: 'a@b.co', org_id: 'missing' } })).status).toBe(404);
    const plain = await runtime.authenticator.issue({ orgId, scopes: ['observability:read'] });
    expect((await call('POST', '/v1/admin/users', { bearer: plain.secret, body: { email: 'a@b.co', org_id: orgId } })).status).toBe(403);

    const token = new URL(created.json.enrollment_url).hash.replace('#token=', '');
    const reissued = await call('POST', `/v1/admin/users/${created.json.id}/enrollment`, { bearer: master });
    expect(reissued.status).toBe(201);
    // The first link stopped working when the second was issued.
    expect((await call('POST', '/v1/auth/enroll', { body: { token } })).json.error.code).toBe('invalid_enrollment');
    expect((await call('GET', '/v1/admin/users', { bearer: master })).json.data.map((u: { email: string }) => u.email)).toContain('new.person@example.com');
  });
});

describe('passkey registration and sign-in over HTTP', () => {
  it('enrolls (single-use link, AAL1 only for registering), then signs in at AAL2 with an HttpOnly SameSite=Strict cookie', async () => {
    const { email, device, token } = await enrolledUser();
    expect((await call('POST', '/v1/auth/enroll', { body: { token } })).status).toBe(401);
    const { browser, complete } = await signIn(email, device);
    expect(complete.status).toBe(200);
    expect(complete.json).toMatchObject({ object: 'session', aal: 'aal2', method: 'passkey', user: { email, role: 'member', org_id: orgId } });
    expect(complete.setCookie).toMatch(/^svc_session=[\w-]+; Max-Age=43200; Path=\/; HttpOnly; SameSite=Strict$/);
    expect((await call('GET', '/v1/auth/session', { browser })).json.aal).toBe('aal2');
  });

  it('lists passkeys with metadata only, with the cookie or a bearer session token, never with an API key', async () => {
    const { email, device } = await enrolledUser();
    const { browser } = await signIn(email, device);
    const listed = await call('GET', '/v1/auth/passkeys', { browser });
    expect(listed.status).toBe(200);
    expect(Object.keys(listed.json.data[0]).sort()).toEqual(['created_at', 'id', 'last_used_at', 'name', 'object', 'transports']);
    const text = JSON.stringify(listed.json);
    const stored = await runtime.db.passkeys.listByUser(listed.json.data[0] ? (await runtime.db.dashboardUsers.getByEmail(email))!.id : '');
    expect(text).not.toContain(stored[0]!.credentialId);
    expect(text).not.toContain(stored[0]!.publicKey);
    const bearer = browser.cookie!.split('=')[1]!;
    expect((await call('GET', '/v1/auth/passkeys', { bearer })).status).toBe(200);
    expect((await call('GET', '/v1/auth/passkeys')).status).toBe(401);
    const apiKey = await call('GET', '/v1/auth/passkeys', { bearer: master });
    expect(apiKey.status).toBe(401);
    expect(apiKey.json.error.message).toMatch(/API key is not a dashboard user/);
  });

  it('answers login/begin for an unknown e-mail with a challenge of the same shape; 400 for a bad e-mail', async () => {
    const { email } = await enrolledUser();
    const known = await call('POST', '/v1/auth/login/begin', { body: { email } });
    const unknown = await call('POST', '/v1/auth/login/begin', { body: { email: 'nobody@example.com' } });
    expect(unknown.status).toBe(200);
    const shape = (o: Record<string, unknown>) => JSON.stringify(o, (_k, v) => (typeof v === 'string' ? v.length : v));
    expect(shape(unknown.json)).toBe(shape(known.json));
    expect(unknown.json.public_key.allowCredentials).toEqual([]);
    expect((await call('POST', '/v1/auth/login/begin', { body: {} })).json.error).toMatchObject({ param: 'email' });
    expect((await call('POST', '/v1/auth/login/begin', { body: { email: 'not-an-email' } })).status).toBe(400);
    expect((await call('POST', '/v1/auth/login/begin', { body: { email }, origin: 'https://evil.example.com' })).status).toBe(403);
  });

  it('refuses login/complete: 400 for a malformed body, 401 for a replay, an unknown passkey or a wrong origin', async () => {
    const { email, device } = await enrolledUser();
    expect((await call('POST', '/v1/auth/login/complete', { body: {} })).json.error).toMatchObject({ param: 'response' });
    expect((await call('POST', '/v1/auth/login/complete', { body: { response: { id: 'x', rawId: 'x', type: 'public-key', response: {} } } })).json.error.param).toBe('response.response.clientDataJSON');
    const begin = await call('POST', '/v1/auth/login/begin', { body: { email } });
    const assertion = device.authenticate(begin.json.public_key);
    expect((await call('POST', '/v1/auth/login/complete', { body: { response: assertion } })).status).toBe(200);
    const replay = await call('POST', '/v1/auth/login/complete', { body: { response: assertion } });
    expect(replay.status).toBe(401);
    expect(replay.json.error.code).toBe('passkey_rejected');
    const stranger = new SoftAuthenticator(origin);
    stranger.register({ rp: { id: 'localhost', name: 'x' }, user: { id: 'dXNlcg', name: 'u', displayName: '' }, challenge: 'Y2g', pubKeyCredParams: [] });
    const unknown = await call('POST', '/v1/auth/login/begin', { body: { email } });
    expect((await call('POST', '/v1/auth/login/complete', { body: { response: stranger.authenticate(unknown.json.public_key) } })).status).toBe(401);
    const phishing = await call('POST', '/v1/auth/login/begin', { body: { email } });
    expect((await call('POST', '/v1/auth/login/complete', { body: { response: device.authenticate(phishing.json.public_key, { origin: 'http://localhost:9999' }) } })).status).toBe(401);
  });
});

describe('CSRF and sign-out', () => {
  it('refuses a cookie POST without the CSRF token or from another origin, and signs out everywhere', async () => {
    const { email, device } = await enrolledUser();
    const { browser } = await signIn(email, device);
    const bearer = browser.cookie!.split('=')[1]!;
    const missing = await call('POST', '/v1/auth/logout', { browser, csrf: null });
    expect(missing.status).toBe(403);
    expect(missing.json.error.code).toBe('csrf_failed');
    expect((await call('POST', '/v1/auth/logout', { browser, csrf: 'wrong' })).status).toBe(403);
    expect((await call('POST', '/v1/auth/logout', { browser, origin: 'https://evil.example.com' })).status).toBe(403);
    const out = await call('POST', '/v1/auth/logout', { browser });
    expect(out.status).toBe(200);
    expect(out.setCookie).toMatch(/svc_session=; Max-Age=0/);
    expect((await call('GET', '/v1/auth/session', { browser })).status).toBe(401);
    expect((await call('GET', '/v1/auth/passkeys', { bearer })).status).toBe(401);
  });

  it('lets an enrollment session register a passkey but nothing that needs AAL2', async () => {
    const created = await call('POST', '/v1/admin/users', { bearer: master, body: { email: `aal1-${serial++}@example.com`, org_id: orgId } });
    const browser: Browser = {};
    await call('POST', '/v1/auth/enroll', { browser, body: { token: new URL(created.json.enrollment_url).hash.slice(7) } });
    const denied = await call('DELETE', '/v1/auth/passkeys/pk_x', { browser });
    expect(denied.status).toBe(403);
    expect(denied.json.error.code).toBe('insufficient_assurance');
    expect((await call('POST', '/v1/auth/passkeys/register/begin', { browser, csrf: null })).status).toBe(403);
  });
});

describe('session expiry', () => {
  it('ends a session at its absolute lifetime', async () => {
    let now = Date.now();
    const dashboardAuth = createDashboardAuth({ rp: runtime.dashboardAuth.rp, store: runtime.db, kv: runtime.kv, sessionTtlMs: 60_000, enrollmentTtlMs: 60_000, now: () => now });
    const clocked = createControlPlaneApp({ ...runtime, dashboardAuth, maxBodyBytes: 1024 * 1024 });
    const user = (await runtime.db.dashboardUsers.list(orgId))[0]!;
    const { token } = await dashboardAuth.sessions.create({ userId: user.id, aal: 'aal2', method: 'passkey' });
    const get = () => clocked.request('/v1/auth/passkeys', { headers: { authorization: `Bearer ${token}` } });
    expect((await get()).status).toBe(200);
    now += 60_001;
    const expired = await get();
    expect(expired.status).toBe(401);
    expect(((await expired.json()) as { error: { code: string } }).error.code).toBe('session_required');
  });
});
