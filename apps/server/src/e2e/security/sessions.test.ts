import { createScratchDatabase } from '@svc/db/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { masterKey } from '../harness.js';
import { type Browser, type Gateway, call, newOrg, passkeyUser, signIn, startSecureGateway } from './security-kit.js';

// Issue #36 finding 4: deleting a user's only passkey left their sessions valid (one then created
// an API key), and nothing could disable or delete a dashboard user, change a role or end sessions.

let gateway: Gateway;
let orgId: string;
beforeAll(async () => {
  gateway = await startSecureGateway();
  orgId = await newOrg(gateway, 'sessions');
});
afterAll(async () => {
  await gateway?.stop();
});

const session = (browser: Browser) => call(gateway, 'GET', '/v1/auth/session', { browser });
const admin = (method: string, path: string, body?: unknown) => call(gateway, method, path, { bearer: masterKey, ...(body === undefined ? {} : { body }) });

describe('sessions end when their grounds end', () => {
  it("deleting a user's only passkey ends every session of theirs, the deleting browser's too", async () => {
    const user = await passkeyUser(gateway, orgId);
    const laptop = await signIn(gateway, user);
    const phone = await signIn(gateway, user);
    // The phone deletes the laptop's (the only) passkey.
    const deleted = await call(gateway, 'DELETE', `/v1/auth/passkeys/${user.passkeyId}`, { browser: phone });
    expect(deleted.json).toMatchObject({ deleted: true, signed_out: true });
    expect((await session(laptop)).status).toBe(401);
    expect((await session(phone)).status).toBe(401);
    // Signed out: no key can be made with the old session any more.
    expect((await call(gateway, 'GET', '/v1/auth/passkeys', { browser: laptop })).status).toBe(401);
  });

  it('deleting one passkey of two signs out every other session, and re-issues the one that asked', async () => {
    const user = await passkeyUser(gateway, orgId);
    const first = await signIn(gateway, user);
    const other = await signIn(gateway, user);
    const register = await call(gateway, 'POST', '/v1/auth/passkeys/register/begin', { browser: first });
    const second = await call(gateway, 'POST', '/v1/auth/passkeys/register/complete', { browser: first, body: { name: 'Phone', response: user.device.register(register.json.public_key) } });
    expect(second.status).toBe(201);
    const before = first.cookie;
    const deleted = await call(gateway, 'DELETE', `/v1/auth/passkeys/${second.json.id}`, { browser: first });
    expect(deleted.json).toMatchObject({ deleted: true, signed_out: false });
    expect(first.cookie).not.toBe(before);
    expect((await session(first)).status).toBe(200);
    expect((await session(other)).status).toBe(401);
  });

  it('disabling a user ends their sessions and refuses their sign-in until enabled again', async () => {
    const user = await passkeyUser(gateway, orgId);
    const browser = await signIn(gateway, user);
    expect((await admin('PATCH', `/v1/admin/users/${user.id}`, { disabled: true })).json).toMatchObject({ disabled_at: expect.any(String) });
    expect((await session(browser)).status).toBe(401);
    const begin = await call(gateway, 'POST', '/v1/auth/login/begin', { body: { email: user.email } });
    const refused = await call(gateway, 'POST', '/v1/auth/login/complete', { body: { response: user.device.authenticate(begin.json.public_key) } });
    expect(refused.status).toBe(401);
    expect(refused.json.error.message).toContain('disabled');
    expect((await admin('PATCH', `/v1/admin/users/${user.id}`, { disabled: false })).json).toMatchObject({ disabled_at: null });
    expect((await session(await signIn(gateway, user))).status).toBe(200);
  });

  it('ending sessions and deleting a user sign them out everywhere; 404 for an unknown user', async () => {
    const user = await passkeyUser(gateway, orgId);
    const browser = await signIn(gateway, user);
    expect((await admin('DELETE', `/v1/admin/users/${user.id}/sessions`)).json).toMatchObject({ ended: true, user_id: user.id });
    expect((await session(browser)).status).toBe(401);
    const again = await signIn(gateway, user);
    expect((await session(again)).status).toBe(200);
    expect((await admin('DELETE', `/v1/admin/users/${user.id}`)).json).toMatchObject({ deleted: true });
    expect((await session(again)).status).toBe(401);
    expect((await admin('DELETE', `/v1/admin/users/${user.id}`)).status).toBe(404);
    expect((await admin('PATCH', '/v1/admin/users/00000000-0000-4000-8000-000000000000', { role: 'admin' })).status).toBe(404);
  });

  it('a role change downgrades a live session at its next request', async () => {
    const other = await newOrg(gateway, 'sessions-other');
    const user = await passkeyUser(gateway, orgId, 'admin');
    const browser = await signIn(gateway, user);
    const page = () => fetch(`${gateway.controlUrl}/dashboard/keys?org=${other}`, { headers: { cookie: browser.cookie! }, redirect: 'manual' });
    expect((await page()).status).toBe(200);
    expect((await admin('PATCH', `/v1/admin/users/${user.id}`, { role: 'member' })).json).toMatchObject({ role: 'member' });
    expect((await page()).status).toBe(403);
    expect((await session(browser)).json.user).toMatchObject({ role: 'member' });
  });
});

describe.runIf(process.env.TEST_DATABASE_URL && process.env.TEST_REDIS_URL)('on every instance (PostgreSQL + Redis)', () => {
  it('a user disabled through one gateway is signed out of the other at once', async () => {
    const database = await createScratchDatabase(process.env.TEST_DATABASE_URL!);
    const shared = { DATABASE_URL: database.url, REDIS_URL: process.env.TEST_REDIS_URL!, SVC_DATA_DIR: '' };
    const [a, b] = await Promise.all([startSecureGateway(shared), startSecureGateway(shared)]);
    try {
      const user = await passkeyUser(a, await newOrg(a, 'fleet'));
      const browser = await signIn(a, user);
      expect((await call(b, 'GET', '/v1/auth/session', { browser })).status).toBe(200);
      expect((await call(b, 'PATCH', `/v1/admin/users/${user.id}`, { bearer: masterKey, body: { disabled: true } })).status).toBe(200);
      expect((await call(a, 'GET', '/v1/auth/session', { browser })).status).toBe(401);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
      await database.drop();
    }
  });
});
