import { type Database, createDb } from '@svc/db';
import { createMemoryKv, type Kv } from '@svc/kv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SoftAuthenticator } from '../test/soft-authenticator.js';
import { type DashboardAuth, createDashboardAuth } from './dashboard-auth.js';
import type { DashboardUserRecord } from './dashboard-store.js';
import { relyingPartyFromOrigin } from './relying-party.js';

const origin = 'https://dashboard.example.com';
let db: Database;
let kv: Kv;
let auth: DashboardAuth;
let orgId: string;
let counter = 0;

beforeAll(async () => {
  db = await createDb({ dataDir: 'memory://' });
  kv = createMemoryKv();
  auth = createDashboardAuth({ rp: relyingPartyFromOrigin(origin), store: db, kv, sessionTtlMs: 3_600_000, enrollmentTtlMs: 3_600_000 });
  orgId = (await db.orgs.ensure('acme')).id;
});
afterAll(async () => {
  await kv?.close();
  await db?.close();
});

async function enrolled(): Promise<{ user: DashboardUserRecord; device: SoftAuthenticator }> {
  counter += 1;
  const { user } = await auth.accounts.create({ email: `person${counter}@example.com`, orgId, role: 'member' });
  const device = new SoftAuthenticator(origin);
  const options = await auth.passkeys.registrationOptions(user);
  await auth.passkeys.verifyRegistration(user, device.register(options), 'Laptop');
  return { user, device };
}

const rejection = (code: string) => expect.objectContaining({ status: 401, code });

describe('passkey registration', () => {
  it('asks for a resident key with user verification and stores the credential', async () => {
    const { user } = await auth.accounts.create({ email: 'Reg@Example.com', orgId, role: 'admin' });
    const options = await auth.passkeys.registrationOptions(user);
    expect(options.rp).toEqual({ id: 'dashboard.example.com', name: 'svc gateway' });
    expect(options.user.name).toBe('reg@example.com');
    expect(options.authenticatorSelection).toMatchObject({ residentKey: 'required', userVerification: 'required' });
    const response = new SoftAuthenticator(origin).register(options);
    const passkey = await auth.passkeys.verifyRegistration(user, response, 'Laptop');
    expect(passkey).toMatchObject({ userId: user.id, name: 'Laptop', credentialId: response.id, transports: ['internal'], counter: 0 });
    // The next options exclude it, so the same authenticator is not registered twice.
    expect((await auth.passkeys.registrationOptions(user)).excludeCredentials).toEqual([{ id: response.id, transports: ['internal'], type: 'public-key' }]);
  });

  it('refuses a wrong origin, a wrong RP id, no user verification, a replay and another user’s challenge', async () => {
    const { user } = await enrolled();
    const device = new SoftAuthenticator(origin);
    const attempt = async (overrides: Parameters<SoftAuthenticator['register']>[1]) =>
      auth.passkeys.verifyRegistration(user, device.register(await auth.passkeys.registrationOptions(user), overrides), 'x');
    await expect(attempt({ origin: 'https://evil.example.com' })).rejects.toEqual(rejection('passkey_rejected'));
    await expect(attempt({ rpId: 'evil.example.com' })).rejects.toEqual(rejection('passkey_rejected'));
    await expect(attempt({ userVerified: false })).rejects.toEqual(rejection('passkey_rejected'));

    const response = device.register(await auth.passkeys.registrationOptions(user));
    await auth.passkeys.verifyRegistration(user, response, 'ok');
    await expect(auth.passkeys.verifyRegistration(user, response, 'again')).rejects.toThrow(/unknown, expired or already used/);

    const other = await enrolled();
    const foreign = device.register(await auth.passkeys.registrationOptions(other.user));
    await expect(auth.passkeys.verifyRegistration(user, foreign, 'x')).rejects.toThrow(/another session/);
  });
});

describe('passkey sign-in', () => {
  it('signs in with a discoverable credential and moves the counter', async () => {
    const { user, device } = await enrolled();
    const options = await auth.passkeys.loginOptions(user.email);
    expect(options).toMatchObject({ rpId: 'dashboard.example.com', allowCredentials: [], userVerification: 'required' });
    const result = await auth.passkeys.verifyLogin(device.authenticate(options));
    expect(result.user.id).toBe(user.id);
    expect(result.passkey.counter).toBe(1);
    expect((await db.dashboardUsers.get(user.id))!.lastLoginAt).toBeInstanceOf(Date);
  });

  it('gives an unknown e-mail a challenge of the same shape', async () => {
    const { user } = await enrolled();
    const known = await auth.passkeys.loginOptions(user.email);
    const unknown = await auth.passkeys.loginOptions('nobody@example.com');
    const shape = (o: object) => Object.entries(o).map(([k, v]) => [k, typeof v === 'string' ? v.length : v]);
    expect(shape({ ...unknown, challenge: unknown.challenge })).toEqual(shape({ ...known, challenge: known.challenge }));
    expect(unknown.challenge).not.toBe(known.challenge);
  });

  it('refuses a replayed assertion, a counter that goes back, a wrong origin or RP id, and another account’s passkey', async () => {
    const { user, device } = await enrolled();
    const signIn = async (overrides: Parameters<SoftAuthenticator['authenticate']>[1] = {}, email = user.email) =>
      auth.passkeys.verifyLogin(device.authenticate(await auth.passkeys.loginOptions(email), overrides));

    const response = device.authenticate(await auth.passkeys.loginOptions(user.email));
    await auth.passkeys.verifyLogin(response);
    await expect(auth.passkeys.verifyLogin(response)).rejects.toThrow(/unknown, expired or already used/);

    await signIn({ counter: 10 });
    await expect(signIn({ counter: 10 })).rejects.toEqual(rejection('passkey_rejected'));
    await expect(signIn({ counter: 3 })).rejects.toThrow(/counter/);
    await expect(signIn({ origin: 'https://evil.example.com' })).rejects.toThrow(/origin/i);
    await expect(signIn({ rpId: 'evil.example.com' })).rejects.toThrow(/RP ID/i);
    await expect(signIn({ userVerified: false })).rejects.toThrow(/verif/i);
    const other = await enrolled();
    await expect(signIn({}, other.user.email)).rejects.toThrow(/not registered for this account/);
    // The refusals above did not move the stored counter: 11 is still ahead of it.
    expect((await signIn({ counter: 11 })).passkey.counter).toBe(11);
  });

  it('refuses a response whose challenge was never issued, and malformed client data with 400', async () => {
    const { user, device } = await enrolled();
    const forged = device.authenticate({ challenge: 'bm90LWlzc3VlZA', rpId: 'dashboard.example.com' });
    await expect(auth.passkeys.verifyLogin(forged)).rejects.toEqual(rejection('passkey_rejected'));
    const valid = device.authenticate(await auth.passkeys.loginOptions(user.email));
    await expect(auth.passkeys.verifyLogin({ ...valid, response: { ...valid.response, clientDataJSON: '!!' } })).rejects.toMatchObject({ status: 400, param: 'response.response.clientDataJSON' });
  });
});
