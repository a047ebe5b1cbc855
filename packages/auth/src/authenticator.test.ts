import { createHash } from 'node:crypto';
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
      listMasters: store.keys.listMasters,
      supersede: store.keys.supersede,
    },
  };
  return counted;
}

describe('Authenticator', () => {
  it("hashes a key as the stored hashes were made: the secret's hex SHA-256", () => {
    expect(hashApiKey('sk-svc-bench-0123456789abcdef0123456789abcdef')).toBe(createHash('sha256').update('sk-svc-bench-0123456789abcdef0123456789abcdef').digest('hex'));
    expect(hashApiKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('stores only the hash and a prefix, and verifies the secret', async () => {
    const auth = new Authenticator({ store: db });
    const org = await db.orgs.ensure('hash-org');
    const { record, secret } = await auth.issue({ orgId: org.id, scopes: ['inference:chat'] });
    expect(secret).toMatch(/^sk-svc-[0-9A-Za-z]{48}$/);
    expect(record.keyHash).toBe(hashApiKey(secret));
    // `sk-svc-` and the 8-character public identifier: none of the 40 secret characters.
    expect(record.keyPrefix).toBe(secret.slice(0, 15));
    expect(record.kind).toBe('standard');
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

  it('resolves a stored key id to the caller its secret resolves to, refusing an unknown, revoked or expired key', async () => {
    let now = Date.now();
    const auth = new Authenticator({ store: db, now: () => now });
    const org = await db.orgs.ensure('key-id-org');
    const { record, secret } = await auth.issue({ orgId: org.id, scopes: ['inference:embeddings'], expiresAt: new Date(now + 60_000) });
    expect(await auth.callerOfKey(record.id)).toEqual(await auth.authenticate(secret));
    await expect(auth.callerOfKey('key_unknown')).rejects.toMatchObject({ status: 401, code: 'invalid_api_key' });
    now += 61_000;
    await expect(auth.callerOfKey(record.id)).rejects.toMatchObject({ status: 401, code: 'expired_api_key' });
    const other = await auth.issue({ orgId: org.id, scopes: [] });
    await auth.revoke(other.record.id);
    await expect(auth.callerOfKey(other.record.id)).rejects.toMatchObject({ status: 401, code: 'revoked_api_key' });
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

});

describe('the master key', () => {
  let masters: Database;
  beforeAll(async () => {
    masters = await createDb({ dataDir: 'memory://' });
  });
  afterAll(async () => {
    await masters?.close();
  });
  const secretA = 'kY8rT2vXq9LmN4pZ7sW1bC6dF3gH5jQ0aE';
  const secretB = 'Pq3Zr8Wm1Xn6Tb4Yc9Vd2Se7Uf5Rg0Hh1Jk';

  it('is ensured once, as an admin key of org default, shown as `master` and never in part', async () => {
    const auth = new Authenticator({ store: masters });
    const [first, second] = await Promise.all([auth.ensureMasterKey(secretA), auth.ensureMasterKey(secretA)]);
    expect(first.record.id).toBe(second.record.id);
    expect(first.record).toMatchObject({ kind: 'master', keyPrefix: 'master', status: 'active', expiresAt: null });
    const caller = await auth.authenticate(secretA);
    expect(caller).toMatchObject({ keyPrefix: 'master', org: { name: 'default' } });
    expect(caller.scopes.has('admin')).toBe(true);
    expect(JSON.stringify(await masters.keys.list())).not.toContain(secretA.slice(0, 4));
    await expect(auth.revoke(first.record.id)).rejects.toMatchObject({ status: 409, code: 'master_key_protected', param: 'id' });
    const other = await auth.issue({ orgId: first.record.orgId, scopes: ['inference:chat'] });
    expect((await auth.revoke(other.record.id))?.status).toBe('revoked');
  });

  it('a new SVC_MASTER_KEY revokes the previous one at start, and the previous one cannot come back', async () => {
    const auth = new Authenticator({ store: masters });
    const a = await auth.ensureMasterKey(secretA);
    const b = await auth.ensureMasterKey(secretB);
    expect(b).toMatchObject({ created: true, superseded: [{ id: a.record.id, until: null }], graceUntil: null });
    await expect(auth.authenticate(secretA)).rejects.toMatchObject({ status: 401, code: 'revoked_api_key' });
    expect((await auth.authenticate(secretB)).keyId).toBe(b.record.id);
    expect((await masters.keys.listMasters()).filter((k) => k.status === 'active').map((k) => k.id)).toEqual([b.record.id]);
    await expect(auth.ensureMasterKey(secretA)).rejects.toThrow(/replaced by a newer master key and revoked/);
    expect((await auth.ensureMasterKey(secretB)).superseded).toEqual([]);
  });

  it('with a grace period the previous key works until it ends; an instance restarting on it meanwhile starts, after it refuses', async () => {
    let now = Date.now();
    const store = await createDb({ dataDir: 'memory://' });
    const auth = new Authenticator({ store, masterKeyGraceMs: 600_000, now: () => now });
    const a = await auth.ensureMasterKey(secretA);
    const b = await auth.ensureMasterKey(secretB);
    expect(b.superseded).toEqual([{ id: a.record.id, until: new Date(now + 600_000) }]);
    expect((await auth.authenticate(secretA)).keyId).toBe(a.record.id);
    const restarted = await auth.ensureMasterKey(secretA);
    expect(restarted.graceUntil).toEqual(new Date(now + 600_000));
    now += 600_001;
    await expect(auth.authenticate(secretA)).rejects.toMatchObject({ code: 'expired_api_key' });
    await expect(auth.ensureMasterKey(secretA)).rejects.toThrow(/grace period ended/);
    // The next start revokes what is left of it.
    expect((await auth.ensureMasterKey(secretB)).superseded).toEqual([{ id: a.record.id, until: null }]);
    await store.close();
  });

  it('rotates: a generated master key supersedes the current one', async () => {
    const store = await createDb({ dataDir: 'memory://' });
    const auth = new Authenticator({ store });
    const a = await auth.ensureMasterKey(secretA);
    const rotated = await auth.rotateMasterKey();
    expect(rotated.secret).toMatch(/^sk-svc-master-[0-9A-Za-z]{40}$/);
    expect(rotated.superseded).toEqual([{ id: a.record.id, until: null }]);
    expect((await auth.authenticate(rotated.secret)).scopes.has('admin')).toBe(true);
    await expect(auth.ensureMasterKey(secretA)).rejects.toThrow(/newer master key/);
    expect((await auth.ensureMasterKey(rotated.secret)).record.id).toBe(rotated.record.id);
    await store.close();
  });

  it('refuses an ordinary API key as SVC_MASTER_KEY', async () => {
    const auth = new Authenticator({ store: masters });
    const org = await masters.orgs.ensure('ordinary');
    const { secret } = await auth.issue({ orgId: org.id, scopes: [] });
    await expect(auth.ensureMasterKey(secret)).rejects.toThrow(/ordinary API key/);
  });
});

describe('throttling wrong keys', () => {
  it('answers 429 with retry-after once a source has tried too many wrong keys, then refuses its right key too until the wait is over', async () => {
    let now = Date.now();
    const store = counting(db);
    const kv = createMemoryKv({ now: () => now });
    const auth = new Authenticator({ store, kv, now: () => now, failureLimits: { perSource: { failures: 3, perMs: 30_000 }, perSubject: { failures: 100, perMs: 60_000 } } });
    const org = await db.orgs.ensure('throttle-org');
    const { secret } = await auth.issue({ orgId: org.id, scopes: [] });
    const from = (address: string) => () => address;
    for (let i = 0; i < 3; i++) await expect(auth.authenticate(`wrong-${i}-key-000000`, from('198.51.100.7'))).rejects.toMatchObject({ status: 401 });
    const refused = await auth.authenticate('wrong-3-key-000000', from('198.51.100.7')).catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 429, type: 'rate_limit_error', code: 'rate_limit_exceeded', headers: { 'retry-after': '10' } });
    await expect(auth.authenticate(secret, from('198.51.100.7'))).rejects.toMatchObject({ status: 429 });
    // Another address is not held back.
    expect((await auth.authenticate(secret, from('198.51.100.8'))).keyId).toBeDefined();
    now += 10_000;
    expect((await auth.authenticate(secret, from('198.51.100.7'))).keyId).toBeDefined();
    await kv.close();
  });

  it('counts wrong keys with one prefix across sources, and across instances sharing the kv', async () => {
    const kv = createMemoryKv();
    const limits = { perSource: { failures: 100, perMs: 60_000 }, perSubject: { failures: 4, perMs: 60_000 } };
    const a = new Authenticator({ store: db, kv, failureLimits: limits });
    const b = new Authenticator({ store: db, kv, failureLimits: limits });
    const guesses = ['Sup3rS3cretKey4A', 'Sup3rS3cretKey4B', 'Sup3rS3cretKey4C', 'Sup3rS3cretKey4D'];
    for (const [i, guess] of guesses.entries()) await expect((i % 2 ? a : b).authenticate(guess, () => `203.0.113.${i}`)).rejects.toMatchObject({ status: 401 });
    await expect(a.authenticate('Sup3rS3cretKey4E', () => '203.0.113.99')).rejects.toMatchObject({ status: 429 });
    await expect(b.authenticate('Sup3rS3cretKey4F', () => '203.0.113.98')).rejects.toMatchObject({ status: 429 });
    await expect(b.authenticate('Other-prefix-key-0', () => '203.0.113.98')).rejects.toMatchObject({ status: 401 });
    await kv.close();
  });

  it('a known key never reaches the throttle\'s kv: only wrong ones are counted', async () => {
    let rounds = 0;
    const kv = createMemoryKv();
    const counted = {
      consumeAll: (steps: Parameters<typeof kv.consumeAll>[0]) => {
        rounds += 1;
        return kv.consumeAll(steps);
      },
    };
    const auth = new Authenticator({ store: db, kv: counted });
    const org = await db.orgs.ensure('no-round-trip-org');
    const { secret } = await auth.issue({ orgId: org.id, scopes: [] });
    for (let i = 0; i < 50; i++) await auth.authenticate(secret, () => '192.0.2.50');
    expect(rounds).toBe(0);
    await expect(auth.authenticate('sk-svc-not-it', () => '192.0.2.50')).rejects.toMatchObject({ status: 401 });
    expect(rounds).toBe(1);
    await kv.close();
  });

  it('counts nothing when the kv is down (a Redis outage must not lock every client out)', async () => {
    const errors: unknown[] = [];
    const auth = new Authenticator({ store: db, kv: { consumeAll: () => Promise.reject(new Error('down')) }, failureLimits: { perSource: { failures: 1, perMs: 60_000 }, perSubject: { failures: 1, perMs: 60_000 } }, onThrottleError: (error) => errors.push(error) });
    for (let i = 0; i < 3; i++) await expect(auth.authenticate('nope-nope-nope', () => '192.0.2.1')).rejects.toMatchObject({ status: 401 });
    expect(errors).toHaveLength(3);
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
