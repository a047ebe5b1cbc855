import { createMemoryKv } from '@svc/kv';
import { describe, expect, it } from 'vitest';
import { relyingPartyFromOrigin } from './relying-party.js';
import { SessionStore, csrfTokenMatches } from './session-store.js';

describe('SessionStore', () => {
  it('keeps a passkey session at aal2 until its absolute end, then forgets it', async () => {
    let now = 1_000_000;
    const kv = createMemoryKv({ now: () => now });
    const sessions = new SessionStore({ kv, ttlMs: 60_000, now: () => now });
    const { token, session } = await sessions.create({ userId: 'u1', aal: 'aal2', method: 'passkey', passkeyId: 'pk_1' });
    expect(session).toMatchObject({ userId: 'u1', aal: 'aal2', expiresAt: now + 60_000, passkeyId: 'pk_1' });
    now += 59_999;
    expect((await sessions.get(token))?.aal).toBe('aal2');
    now += 1;
    expect(await sessions.get(token)).toBeUndefined();
    await kv.close();
  });

  it('stores only a digest of the token, and a revoked session is gone for everyone sharing the kv', async () => {
    const kv = createMemoryKv();
    const here = new SessionStore({ kv, ttlMs: 60_000 });
    const elsewhere = new SessionStore({ kv, ttlMs: 60_000 });
    const { token } = await here.create({ userId: 'u1', aal: 'aal2', method: 'passkey' });
    expect(await kv.get(`dash:session:${token}`)).toBeNull();
    expect(await elsewhere.get(token)).toBeDefined();
    expect(await here.revoke(token)).toBe(true);
    expect(await elsewhere.get(token)).toBeUndefined();
    expect(await here.get('')).toBeUndefined();
    await kv.close();
  });

  it('gives enrollment sessions (aal1) a short life', async () => {
    const kv = createMemoryKv();
    const { session } = await new SessionStore({ kv, ttlMs: 3_600_000, now: () => 0 }).create({ userId: 'u', aal: 'aal1', method: 'enrollment' });
    expect(session.expiresAt).toBe(15 * 60_000);
    await kv.close();
  });

  it('matches CSRF tokens exactly', () => {
    const session = { csrfToken: 'abc' };
    expect(csrfTokenMatches(session, 'abc')).toBe(true);
    expect(csrfTokenMatches(session, 'abd')).toBe(false);
    expect(csrfTokenMatches(session, undefined)).toBe(false);
  });
});

describe('relyingPartyFromOrigin', () => {
  it('derives the RP id and cookie security from the origin', () => {
    expect(relyingPartyFromOrigin('https://dash.example.com')).toMatchObject({ origin: 'https://dash.example.com', rpId: 'dash.example.com', secureCookies: true, cookieName: '__Host-svc_session' });
    expect(relyingPartyFromOrigin('http://localhost:8081/')).toMatchObject({ origin: 'http://localhost:8081', rpId: 'localhost', secureCookies: false, cookieName: 'svc_session' });
  });

  it('refuses what browsers would refuse, naming the fix', () => {
    expect(() => relyingPartyFromOrigin('http://127.0.0.1:8081')).toThrow(/domain name, not the IP address/);
    expect(() => relyingPartyFromOrigin('https://[::1]:8081')).toThrow(/IP address/);
    expect(() => relyingPartyFromOrigin('http://dash.example.com')).toThrow(/only allowed on localhost/);
    expect(() => relyingPartyFromOrigin('https://dash.example.com/app')).toThrow(/origin only/);
    expect(() => relyingPartyFromOrigin('ftp://dash.example.com')).toThrow(/https/);
    expect(() => relyingPartyFromOrigin('dash')).toThrow(/not a URL/);
  });
});
