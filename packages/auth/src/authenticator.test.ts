import { type Database, createDb } from '@svc/db';
import { createMemoryKv } from '@svc/kv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashApiKey, readCredential } from './api-key.js';
import { Authenticator } from './authenticator.js';
import type { AuthStore } from './store.js';

let db: Database;

beforeAll(async () => {
  db = await createDb({ dataDir: 'memory://' });
});
afterAll(async () => {
  await db?.close();
});

/** The real store, counting the lookups that reach it. */
function counting(store: Database): AuthStore & { lookups: number } {
  const counted = {
    lookups: 0,
    orgs: store.orgs,
    keys: {
      findByHash: async (hash: string) => {
        counted.lookups++;
        return store.keys.findByHash(hash);
      },
      create: store.keys.create,
      get: store.keys.get,
      list: store.keys.list,
      revoke: store.keys.revoke,
      update: store.keys.update,
    },
  };
  return counted;
}

describe('Authenticator', () => {
  it('stores only the hash and a prefix, and verifies the secret', async () => {
    const auth = new Authenticator({ store: db });
    const org = await db.orgs.ensure('hash-org');
    const { record, secret } = await auth.issue({ orgId: org.id, scopes: ['inference:chat'] });
    expect(secret).toMatch(/^sk-svc-[0-9A-Za-z]{40}$/);
    expect(record.keyHash).toBe(hashApiKey(secret));
    expect(record.keyPrefix).toBe(secret.slice(0, 14));
    expect(JSON.stringify(await db.keys.get(record.id))).not.toContain(secret);
    const caller = await auth.authenticate(secret);
    expect(caller).toMatchObject({ keyId: record.id, org: { id: org.id } });
    expect([...caller.scopes]).toEqual(['inference:chat']);
  });

  it('carries a key\'s own per-minute limits to the caller, and none for a key without them', async () => {
    const auth = new Authenticator({ store: db });
    const org = await db.orgs.ensure('key-limits-org');
    const limited = await auth.issue({ orgId: org.id, scopes: ['inference:chat'], rpmLimit: 5, tpmLimit: null });
    expect(limited.record).toMatchObject({ rpmLimit: 5, tpmLimit: null });
    expect((await auth.authenticate(limited.secret)).keyLimits).toEqual({ rpm: 5, tpm: null, monthlyBudgetUsd: null });
    const plain = await auth.issue({ orgId: org.id, scopes: ['inference:chat'] });
    expect((await auth.authenticate(plain.secret)).keyLimits).toBeUndefined();
  });

  it('serves repeated verifications from its cache, refusals included', async () => {
    const store = counting(db);
    const auth = new Authenticator({ store });
    const org = await db.orgs.ensure('cache-org');
    const { secret } = await auth.issue({ orgId: org.id, scopes: ['inference:chat'] });
    for (let i = 0; i < 5; i++) await auth.authenticate(secret);
    for (let i = 0; i < 5; i++) await expect(auth.authenticate('sk-svc-unknown')).rejects.toMatchObject({ code: 'invalid_api_key' });
    expect(store.lookups).toBe(2);
  });

  it('re-reads a key after the cache TTL', async () => {
    let now = Date.now();
    const store = counting(db);
    const auth = new Authenticator({ store, cacheTtlMs: 1_000, now: () => now });
    const org = await db.orgs.ensure('ttl-org');
    const { secret } = await auth.issue({ orgId: org.id, scopes: [] });
    await auth.authenticate(secret);
    await auth.authenticate(secret);
    expect(store.lookups).toBe(1);
    now += 5_000; // the key's own expiry check and the cache TTL both use this clock
    await new Promise((resolve) => setTimeout(resolve, 1_050));
    await auth.authenticate(secret);
    expect(store.lookups).toBe(2);
  });

  it('refuses expired keys with expired_api_key, using its clock', async () => {
    let now = Date.now();
    const auth = new Authenticator({ store: db, now: () => now });
    const org = await db.orgs.ensure('expiry-org');
    const { secret } = await auth.issue({ orgId: org.id, scopes: [], expiresAt: new Date(now + 60_000) });
    await expect(auth.authenticate(secret)).resolves.toBeDefined();
    now += 61_000;
    await expect(auth.authenticate(secret)).rejects.toMatchObject({ status: 401, code: 'expired_api_key' });
  });

  it('revokes on every instance sharing the bus, at once', async () => {
    const bus = createMemoryKv();
    const a = new Authenticator({ store: db, bus });
    const b = new Authenticator({ store: db, bus });
    await a.start();
    await b.start();
    const org = await db.orgs.ensure('bus-org');
    const { record, secret } = await a.issue({ orgId: org.id, scopes: [] });
    await a.authenticate(secret);
    await b.authenticate(secret); // cached as valid on b
    await a.revoke(record.id);
    await expect(a.authenticate(secret)).rejects.toMatchObject({ code: 'revoked_api_key' });
    await expect.poll(() => b.authenticate(secret).then(() => 'valid', (error: { code: string }) => error.code)).toBe('revoked_api_key');
    await a.stop();
    await b.stop();
    await bus.close();
  });

  it('reloads an organisation on every instance once it changed', async () => {
    const bus = createMemoryKv();
    const a = new Authenticator({ store: db, bus });
    const b = new Authenticator({ store: db, bus });
    await a.start();
    await b.start();
    const org = await db.orgs.ensure('changing-org');
    const { secret } = await a.issue({ orgId: org.id, scopes: [] });
    expect((await b.authenticate(secret)).org.defaultIntelligenceMode).toBeNull();
    await db.orgs.update(org.id, { defaultIntelligenceMode: 'proxy' });
    expect((await b.authenticate(secret)).org.defaultIntelligenceMode).toBeNull(); // still cached
    await a.orgChanged(org.id);
    await expect.poll(async () => (await b.authenticate(secret)).org.defaultIntelligenceMode).toBe('proxy');
    await a.stop();
    await b.stop();
    await bus.close();
  });

  it('ensures the master key once, as an admin key of org default', async () => {
    const auth = new Authenticator({ store: db });
    const secret = 'sk-svc-master-key-for-auth-tests';
    const [first, second] = await Promise.all([auth.ensureMasterKey(secret), auth.ensureMasterKey(secret)]);
    expect(first.id).toBe(second.id);
    const caller = await auth.authenticate(secret);
    expect(caller.org.name).toBe('default');
    expect(caller.scopes.has('admin')).toBe(true);
  });

  it('never revokes the master key: it is rotated through SVC_MASTER_KEY', async () => {
    const auth = new Authenticator({ store: db });
    const secret = 'sk-svc-master-key-for-revoke-tests';
    const master = await auth.ensureMasterKey(secret);
    expect(auth.isMasterKey(master.id)).toBe(true);
    await expect(auth.revoke(master.id)).rejects.toMatchObject({ status: 409, code: 'master_key_protected', param: 'id' });
    expect((await auth.authenticate(secret)).keyId).toBe(master.id);
    const other = await auth.issue({ orgId: master.orgId, scopes: ['inference:chat'] });
    expect(auth.isMasterKey(other.record.id)).toBe(false);
    expect((await auth.revoke(other.record.id))?.status).toBe('revoked');
  });
});

describe('readCredential', () => {
  it('reads Bearer tokens and x-api-key, and nothing else', () => {
    expect(readCredential('Bearer sk-1')).toBe('sk-1');
    expect(readCredential('bearer   sk-2 ')).toBe('sk-2');
    expect(readCredential(undefined, 'sk-3')).toBe('sk-3');
    expect(readCredential('Basic abc', 'sk-4')).toBeUndefined();
    expect(readCredential('Bearer ')).toBeUndefined();
    expect(readCredential(null, '  ')).toBeUndefined();
  });
});
