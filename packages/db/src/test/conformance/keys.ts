import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { DbConflictError } from '../../errors.js';
import { createTestOrg, type GetDb, newKeyInput, nextClockTick } from '../fixtures.js';

export function keyConformance(getDb: GetDb): void {
  it('stores a key and finds it with its organisation by hash', async () => {
    const db = getDb();
    const org = await createTestOrg(db);
    const expiresAt = new Date('2031-02-03T04:05:06.789Z');
    const input = newKeyInput(org.id, { scopes: ['inference:chat', 'admin'], expiresAt });
    const key = await db.keys.create(input);
    expect(key).toMatchObject({
      id: input.id,
      orgId: org.id,
      name: 'test key',
      keyHash: input.keyHash,
      keyPrefix: input.keyPrefix,
      scopes: ['inference:chat', 'admin'],
      status: 'active',
      expiresAt,
      revokedAt: null,
      lastUsedAt: null,
    });
    expect(await db.keys.get(input.id)).toEqual(key);
    const found = await db.keys.findByHash(input.keyHash);
    expect(found?.key).toEqual(key);
    expect(found?.org).toEqual({ ...org, outputConfig: null });
    expect(await db.keys.findByHash('0'.repeat(64))).toBeUndefined();
  });

  it("stores a key's guardrails, updates and clears them; none by default", async () => {
    const db = getDb();
    const org = await createTestOrg(db);
    const checks = [{ kind: 'pii', stage: 'before_call', action: 'redact' }] as const;
    const key = await db.keys.create(newKeyInput(org.id, { guardrails: checks }));
    expect((await db.keys.findByHash(key.keyHash))?.key.guardrails).toEqual(checks);
    expect((await db.keys.update(key.id, { guardrails: null }))?.guardrails).toBeNull();
    expect((await db.keys.create(newKeyInput(org.id))).guardrails).toBeNull();
  });

  it("stores a key's model access lists, updates and clears them; none by default", async () => {
    const db = getDb();
    const org = await createTestOrg(db);
    const key = await db.keys.create(newKeyInput(org.id, { modelAccess: { allow: ['gpt-4o-mini'], deny: [] } }));
    expect((await db.keys.get(key.id))?.modelAccess).toEqual({ allow: ['gpt-4o-mini'], deny: [] });
    expect((await db.keys.findByHash(key.keyHash))?.key.modelAccess).toEqual({ allow: ['gpt-4o-mini'], deny: [] });
    expect((await db.keys.update(key.id, { modelAccess: { allow: [], deny: ['svc/auto'] } }))?.modelAccess).toEqual({ allow: [], deny: ['svc/auto'] });
    expect((await db.keys.update(key.id, { modelAccess: null }))?.modelAccess).toBeNull();
    expect((await db.keys.create(newKeyInput(org.id))).modelAccess).toBeNull();
  });

  it('round-trips empty and unknown scopes and a missing name', async () => {
    const db = getDb();
    const org = await createTestOrg(db);
    const none = await db.keys.create(newKeyInput(org.id, { scopes: [], name: null }));
    const odd = await db.keys.create(newKeyInput(org.id, { scopes: ['memory:read', 'future:thing'] }));
    expect((await db.keys.get(none.id))?.scopes).toEqual([]);
    expect((await db.keys.get(none.id))?.name).toBeNull();
    expect((await db.keys.get(odd.id))?.scopes).toEqual(['memory:read', 'future:thing']);
  });

  it('rejects a duplicate hash with DbConflictError and an unknown org', async () => {
    const db = getDb();
    const org = await createTestOrg(db);
    const first = newKeyInput(org.id);
    await db.keys.create(first);
    await expect(db.keys.create(newKeyInput(org.id, { keyHash: first.keyHash }))).rejects.toBeInstanceOf(
      DbConflictError,
    );
    await expect(db.keys.create(newKeyInput(randomUUID()))).rejects.toThrow();
  });

  it('lists keys per organisation', async () => {
    const db = getDb();
    const [a, b] = [await createTestOrg(db), await createTestOrg(db)];
    const keyA = await db.keys.create(newKeyInput(a.id));
    const keyB = await db.keys.create(newKeyInput(b.id));
    expect((await db.keys.list(a.id)).map((k) => k.id)).toEqual([keyA.id]);
    const all = (await db.keys.list()).map((k) => k.id);
    expect(all).toEqual(expect.arrayContaining([keyA.id, keyB.id]));
    expect(await db.keys.list('not-a-uuid')).toEqual([]);
  });

  it('revokes idempotently, keeping the first revokedAt, and findByHash shows it', async () => {
    const db = getDb();
    const org = await createTestOrg(db);
    const input = newKeyInput(org.id);
    await db.keys.create(input);
    const revoked = await db.keys.revoke(input.id);
    expect(revoked?.status).toBe('revoked');
    expect(revoked?.revokedAt).toBeInstanceOf(Date);
    const again = await db.keys.revoke(input.id);
    expect(again?.revokedAt).toEqual(revoked?.revokedAt);
    expect((await db.keys.findByHash(input.keyHash))?.key.status).toBe('revoked');
    expect(await db.keys.revoke('key_missing')).toBeUndefined();
  });

  it('touch records last use and never rejects', async () => {
    const db = getDb();
    const org = await createTestOrg(db);
    const key = await db.keys.create(newKeyInput(org.id));
    const before = Date.now();
    expect(await db.keys.touch(key.id)).toBe(true);
    const lastUsedAt = (await db.keys.get(key.id))?.lastUsedAt;
    expect(lastUsedAt).toBeInstanceOf(Date);
    // Database clock vs. test clock: allow a little skew.
    expect(lastUsedAt!.getTime()).toBeGreaterThan(before - 60_000);
    expect(await db.keys.touch('key_missing')).toBe(false);
  });

  it('pages keys in creation order: limit, after and has_more', async () => {
    const db = getDb();
    const org = await createTestOrg(db);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push((await db.keys.create(newKeyInput(org.id))).id);
      await nextClockTick();
    }
    const first = await db.keys.page({ orgId: org.id, limit: 2 });
    expect(first.data.map((k) => k.id)).toEqual(ids.slice(0, 2));
    expect(first.hasMore).toBe(true);
    const second = await db.keys.page({ orgId: org.id, limit: 2, after: ids[1] });
    expect(second.data.map((k) => k.id)).toEqual(ids.slice(2, 4));
    const last = await db.keys.page({ orgId: org.id, limit: 2, after: ids[3] });
    expect(last).toMatchObject({ hasMore: false });
    expect(last.data.map((k) => k.id)).toEqual([ids[4]]);
    expect((await db.keys.page({ orgId: org.id, limit: 2, after: 'key_unknown' })).data).toEqual([]);
    expect((await db.keys.page({ orgId: 'not-a-uuid', limit: 2 })).data).toEqual([]);
  });

  it('keeps master keys apart and supersedes one now or after a grace period', async () => {
    const db = getDb();
    const org = await createTestOrg(db);
    const standard = await db.keys.create(newKeyInput(org.id));
    const old = await db.keys.create(newKeyInput(org.id, { kind: 'master', keyPrefix: 'master' }));
    await nextClockTick();
    const older = await db.keys.create(newKeyInput(org.id, { kind: 'master', keyPrefix: 'master' }));
    expect(standard.kind).toBe('standard');
    const masters = (await db.keys.listMasters()).filter((k) => k.orgId === org.id);
    expect(masters.map((k) => k.id)).toEqual([old.id, older.id]);
    const until = new Date(Date.now() + 60_000);
    expect(await db.keys.supersede(old.id, until)).toMatchObject({ status: 'active', expiresAt: until });
    // A second grace never extends the first.
    expect(await db.keys.supersede(old.id, new Date(Date.now() + 3_600_000))).toMatchObject({ expiresAt: until });
    expect(await db.keys.supersede(older.id, null)).toMatchObject({ status: 'revoked' });
    expect(await db.keys.supersede('key_missing', null)).toBeUndefined();
  });
}
