import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { DbConflictError } from '../../errors.js';
import { createTestOrg, type GetDb, newPasskey, newUser, nextClockTick, sha256Hex } from '../fixtures.js';

export function dashboardUserConformance(getDb: GetDb): void {
  it('creates users with lower-cased e-mails, unique case-insensitively', async () => {
    const db = getDb();
    const org = await createTestOrg(db);
    const input = newUser(org.id, 'admin');
    const user = await db.dashboardUsers.create(input);
    expect(user).toMatchObject({ email: input.email.toLowerCase(), orgId: org.id, role: 'admin', enrollmentExpiresAt: null, lastLoginAt: null });
    expect(await db.dashboardUsers.getByEmail(input.email.toUpperCase())).toEqual(user);
    expect(await db.dashboardUsers.get(user.id)).toEqual(user);
    expect(await db.dashboardUsers.get('nope')).toBeUndefined();
    await expect(db.dashboardUsers.create({ ...input, webauthnUserId: randomUUID() })).rejects.toBeInstanceOf(DbConflictError);
    expect((await db.dashboardUsers.list(org.id)).map((u) => u.id)).toEqual([user.id]);
    expect(await db.dashboardUsers.list('not-a-uuid')).toEqual([]);
    await db.dashboardUsers.touchLogin(user.id);
    expect((await db.dashboardUsers.get(user.id))!.lastLoginAt).toBeInstanceOf(Date);
  });

  it('redeems an enrollment link once, only before it expires; a new link replaces the old one', async () => {
    const db = getDb();
    const user = await db.dashboardUsers.create(newUser((await createTestOrg(db)).id));
    const first = sha256Hex(randomUUID());
    const second = sha256Hex(randomUUID());
    const inAnHour = new Date(Date.now() + 3_600_000);
    expect((await db.dashboardUsers.setEnrollment(user.id, first, inAnHour))!.enrollmentExpiresAt).toEqual(inAnHour);
    await db.dashboardUsers.setEnrollment(user.id, second, inAnHour);
    expect(await db.dashboardUsers.redeemEnrollment(first)).toBeUndefined();
    const redeemed = await Promise.all(Array.from({ length: 5 }, () => db.dashboardUsers.redeemEnrollment(second)));
    expect(redeemed.filter(Boolean).map((u) => u!.id)).toEqual([user.id]);
    expect((await db.dashboardUsers.get(user.id))!.enrollmentExpiresAt).toBeNull();

    const expired = sha256Hex(randomUUID());
    await db.dashboardUsers.setEnrollment(user.id, expired, new Date(Date.now() - 1000));
    expect(await db.dashboardUsers.redeemEnrollment(expired)).toBeUndefined();
    expect(await db.dashboardUsers.setEnrollment(randomUUID(), expired, inAnHour)).toBeUndefined();
  });

  it('stores passkeys, finds them by credential id with their user, and refuses a credential twice', async () => {
    const db = getDb();
    const user = await db.dashboardUsers.create(newUser((await createTestOrg(db)).id));
    const input = newPasskey(user.id);
    const passkey = await db.passkeys.create(input);
    expect(passkey).toMatchObject({ ...input, lastUsedAt: null });
    expect(await db.passkeys.findByCredentialId(input.credentialId)).toEqual({ passkey, user });
    expect(await db.passkeys.findByCredentialId('unknown')).toBeUndefined();
    await expect(db.passkeys.create({ ...newPasskey(user.id), credentialId: input.credentialId })).rejects.toBeInstanceOf(DbConflictError);
    await nextClockTick();
    const later = await db.passkeys.create(newPasskey(user.id, { name: 'Phone' }));
    expect((await db.passkeys.listByUser(user.id)).map((p) => p.id)).toEqual([passkey.id, later.id]);
  });

  it('moves the signature counter forward only (concurrent uses of one value: one wins)', async () => {
    const db = getDb();
    const user = await db.dashboardUsers.create(newUser((await createTestOrg(db)).id));
    const counted = await db.passkeys.create(newPasskey(user.id, { counter: 5 }));
    expect(await db.passkeys.recordUse(counted.id, 5)).toBe(false);
    expect(await db.passkeys.recordUse(counted.id, 4)).toBe(false);
    const results = await Promise.all([db.passkeys.recordUse(counted.id, 6), db.passkeys.recordUse(counted.id, 6)]);
    expect(results.filter(Boolean)).toHaveLength(1);
    const stored = (await db.passkeys.findByCredentialId(counted.credentialId))!.passkey;
    expect(stored.counter).toBe(6);
    expect(stored.lastUsedAt).toBeInstanceOf(Date);

    const counterless = await db.passkeys.create(newPasskey(user.id));
    expect(await db.passkeys.recordUse(counterless.id, 0)).toBe(true);
    expect(await db.passkeys.recordUse(counterless.id, 0)).toBe(true);
  });

  it("deletes only the user's own passkey; deleting the user deletes its passkeys", async () => {
    const db = getDb();
    const org = await createTestOrg(db);
    const owner = await db.dashboardUsers.create(newUser(org.id));
    const other = await db.dashboardUsers.create(newUser(org.id));
    const passkey = await db.passkeys.create(newPasskey(owner.id));
    expect(await db.passkeys.delete(other.id, passkey.id)).toBe(false);
    expect(await db.passkeys.delete(owner.id, passkey.id)).toBe(true);
    expect(await db.passkeys.delete(owner.id, passkey.id)).toBe(false);
    expect(await db.passkeys.listByUser(owner.id)).toEqual([]);
  });

  it('changes a role, disables and enables, ends sessions, pages and deletes', async () => {
    const db = getDb();
    const org = await createTestOrg(db);
    const user = await db.dashboardUsers.create(newUser(org.id, 'admin'));
    await nextClockTick();
    const other = await db.dashboardUsers.create(newUser(org.id));
    expect(user).toMatchObject({ disabledAt: null, sessionGeneration: 0 });
    expect(await db.dashboardUsers.update(user.id, { role: 'member' })).toMatchObject({ role: 'member', disabledAt: null });
    const disabled = await db.dashboardUsers.update(user.id, { disabled: true });
    expect(disabled!.disabledAt).toBeInstanceOf(Date);
    expect((await db.dashboardUsers.update(user.id, { disabled: true }))!.disabledAt).toEqual(disabled!.disabledAt);
    expect(await db.dashboardUsers.update(user.id, { disabled: false })).toMatchObject({ disabledAt: null });
    expect(await db.dashboardUsers.endSessions(user.id)).toMatchObject({ sessionGeneration: 1 });
    expect(await db.dashboardUsers.endSessions(user.id)).toMatchObject({ sessionGeneration: 2 });
    expect(await db.dashboardUsers.update(randomUUID(), { role: 'admin' })).toBeUndefined();
    expect(await db.dashboardUsers.endSessions('nope')).toBeUndefined();
    const first = await db.dashboardUsers.page({ orgId: org.id, limit: 1 });
    expect(first).toMatchObject({ hasMore: true, data: [{ id: user.id }] });
    expect(await db.dashboardUsers.page({ orgId: org.id, limit: 1, after: user.id })).toMatchObject({ hasMore: false, data: [{ id: other.id }] });
    await db.passkeys.create(newPasskey(user.id));
    expect(await db.dashboardUsers.delete(user.id)).toBe(true);
    expect(await db.dashboardUsers.get(user.id)).toBeUndefined();
    expect(await db.passkeys.listByUser(user.id)).toEqual([]);
    expect(await db.dashboardUsers.delete(user.id)).toBe(false);
  });
}
