import { type Runtime, createRuntime } from '../../../runtime/runtime.js';
import { parseEnv } from '../../../runtime/env.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createControlPlaneApp } from '@svc/control-plane';

const origin = 'http://localhost:8081';
let runtime: Runtime;
let app: ReturnType<typeof createControlPlaneApp>;
let own: { id: string };
let other: { id: string };

beforeAll(async () => {
  runtime = await createRuntime(parseEnv({ SVC_DATA_DIR: 'memory://', SVC_SENTENCE_ENCODER: 'hashed', SVC_MOCK_PROVIDER: '1', LOG_LEVEL: 'silent' }));
  app = createControlPlaneApp({ ...runtime, maxBodyBytes: 1024 * 1024 });
  own = await runtime.db.orgs.ensure('pages-own');
  other = await runtime.db.orgs.ensure('pages-other');
});
afterAll(async () => {
  await runtime?.close();
});

/** A signed-in browser of a user with `role` in the org `own` (a session created directly, as login/complete would). */
async function signedIn(role: 'admin' | 'member') {
  const { user } = await runtime.dashboardAuth.accounts.create({ email: `${role}-${Math.random()}@example.com`, orgId: own.id, role });
  const { token, session } = await runtime.dashboardAuth.sessions.create({ userId: user.id, aal: 'aal2', method: 'passkey' });
  const cookie = `svc_session=${token}`;
  return {
    get: (path: string) => app.request(path, { headers: { cookie } }),
    post: (path: string, form: Record<string, string>, csrf: string | null = session.csrfToken) =>
      app.request(path, {
        method: 'POST',
        headers: { cookie, origin, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ ...form, ...(csrf === null ? {} : { _csrf: csrf }) }).toString(),
      }),
  };
}

describe('dashboard pages', () => {
  it('redirects to sign-in without a session and sends the security headers', async () => {
    const response = await app.request('/dashboard');
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/dashboard/login');
    const login = await app.request('/dashboard/login');
    expect(login.status).toBe(200);
    expect(login.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(await login.text()).toMatch(/^<!doctype html>/);
    expect(login.headers.get('cache-control')).toBe('no-store');
    // The static assets keep their own caching, with the security headers.
    const script = await app.request('/dashboard/assets/dashboard.js');
    expect(script.status).toBe(200);
    expect(script.headers.get('cache-control')).toBe('public, max-age=300');
    expect(script.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('lists the master key without offering to revoke it, and refuses a forged revoke (409)', async () => {
    const master = await runtime.authenticator.ensureMasterKey('sk-svc-pages-master-key-0123456789');
    const admin = await signedIn('admin');
    const page = await (await admin.get(`/dashboard/keys?org=${master.orgId}`)).text();
    expect(page).toContain(`data-testid="master-${master.id}"`);
    expect(page).not.toContain(`data-testid="revoke-${master.id}"`);
    expect((await admin.post(`/dashboard/keys/${master.id}/revoke`, {})).status).toBe(409);
    expect((await runtime.db.keys.get(master.id))!.status).toBe('active');
  });

  it('keeps a member to its own organisation: other orgs, their keys and limits are refused', async () => {
    const member = await signedIn('member');
    expect((await member.get('/dashboard')).status).toBe(200);
    expect((await member.get(`/dashboard?org=${other.id}`)).status).toBe(403);
    expect((await member.get(`/dashboard/keys?org=${other.id}`)).status).toBe(403);
    expect((await member.post('/dashboard/keys', { org_id: other.id, name: 'x' })).status).toBe(403);
    const foreign = await runtime.authenticator.issue({ orgId: other.id, scopes: ['inference:chat'] });
    expect((await member.post(`/dashboard/keys/${foreign.record.id}/revoke`, {})).status).toBe(403);
    expect((await runtime.db.keys.get(foreign.record.id))!.status).toBe('active');
    const limits = await member.post(`/dashboard/org/${own.id}`, { rpm_limit: '1' });
    expect(limits.status).toBe(403);
    expect((await runtime.db.orgs.get(own.id))!.rpmLimit).toBeNull();
    expect(await (await member.get('/dashboard/org')).text()).not.toContain('Save limits');
  });

  it('creates a key in its own org (secret shown once) and refuses a form without the CSRF token', async () => {
    const member = await signedIn('member');
    expect((await member.post('/dashboard/keys', { name: 'no token' }, null)).status).toBe(403);
    expect((await member.post('/dashboard/keys', { name: 'wrong token' }, 'nope')).status).toBe(403);
    const created = await member.post('/dashboard/keys', { name: 'from the dashboard' });
    expect(created.status).toBe(201);
    const secret = /sk-svc-[A-Za-z0-9]+/.exec(await created.text())![0];
    const caller = await runtime.authenticator.authenticate(secret);
    expect(caller.org.id).toBe(own.id);
    expect(caller.scopes.has('admin')).toBe(false);
    expect((await member.get('/dashboard/keys')).status).toBe(200);
    expect(await (await member.get('/dashboard/keys')).text()).not.toContain(secret);
  });

  it('lets an admin see the fleet, any organisation, and change limits', async () => {
    const admin = await signedIn('admin');
    expect(await (await admin.get('/dashboard')).text()).toContain('Whole fleet');
    expect((await admin.get(`/dashboard?org=${other.id}&range=30d`)).status).toBe(200);
    const saved = await admin.post(`/dashboard/org/${other.id}`, { rpm_limit: '120', monthly_budget_usd: '12.5', tpm_limit: '', token_quota: '' });
    expect(saved.status).toBe(303);
    expect(await runtime.db.orgs.get(other.id)).toMatchObject({ rpmLimit: 120, monthlyBudgetUsd: 12.5, tpmLimit: null });
    expect((await admin.post(`/dashboard/org/${other.id}`, { rpm_limit: '-3' })).status).toBe(400);
  });
});
