import { randomBytes, randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import type { NewProviderKey } from '../../repositories/provider-keys.js';
import { createTestOrg, type GetDb } from '../fixtures.js';

/** A sealed credential as the BYOK module would write it (random bytes stand in for AES-GCM output). */
function sealed(provider: string, overrides: Partial<NewProviderKey> = {}): NewProviderKey {
  return { provider, ciphertext: randomBytes(51), iv: randomBytes(12), tag: randomBytes(16), keyVersion: 'k1', last4: 'wxyz', ...overrides };
}

const bytes = (value: Uint8Array) => Buffer.from(value).toString('hex');

export function providerKeyConformance(getDb: GetDb): void {
  it('stores, lists by provider, replaces and deletes credentials', async () => {
    const db = getDb();
    const org = await createTestOrg(db);
    expect(await db.providerKeys.list(org.id)).toEqual([]);

    const openai = sealed('openai');
    const first = await db.providerKeys.put(org.id, openai);
    expect(first.created).toBe(true);
    expect(first.key).toMatchObject({ orgId: org.id, provider: 'openai', keyVersion: 'k1', last4: 'wxyz' });
    expect(first.key.createdAt).toBeInstanceOf(Date);
    await db.providerKeys.put(org.id, sealed('anthropic'));
    expect((await db.providerKeys.list(org.id)).map((key) => key.provider)).toEqual(['anthropic', 'openai']);

    const replacement = sealed('openai', { keyVersion: 'k2', last4: 'abcd' });
    const replaced = await db.providerKeys.put(org.id, replacement);
    expect(replaced.created).toBe(false);
    expect(replaced.key).toMatchObject({ keyVersion: 'k2', last4: 'abcd', createdAt: first.key.createdAt });
    expect(replaced.key.updatedAt.getTime()).toBeGreaterThanOrEqual(first.key.updatedAt.getTime());
    expect(bytes(replaced.key.ciphertext)).toBe(bytes(replacement.ciphertext));
    expect(await db.providerKeys.get(org.id, 'openai')).toEqual(replaced.key);

    expect(await db.providerKeys.delete(org.id, 'openai')).toBe(true);
    expect(await db.providerKeys.delete(org.id, 'openai')).toBe(false);
    expect(await db.providerKeys.get(org.id, 'openai')).toBeUndefined();
    expect((await db.providerKeys.list(org.id)).map((key) => key.provider)).toEqual(['anthropic']);
  });

  it('round-trips the sealed bytes exactly, zero bytes and high bytes included', async () => {
    const db = getDb();
    const org = await createTestOrg(db);
    const key = sealed('groq', { ciphertext: Uint8Array.from([0, 255, 0, 1, 128, 92, 39, 34]), iv: new Uint8Array(12), tag: randomBytes(16) });
    await db.providerKeys.put(org.id, key);
    const stored = await db.providerKeys.get(org.id, 'groq');
    expect(stored?.ciphertext).toBeInstanceOf(Uint8Array);
    expect([bytes(stored!.ciphertext), bytes(stored!.iv), bytes(stored!.tag)]).toEqual([bytes(key.ciphertext), bytes(key.iv), bytes(key.tag)]);
  });

  it('keeps credentials apart per organisation', async () => {
    const db = getDb();
    const [a, b] = await Promise.all([createTestOrg(db), createTestOrg(db)]);
    await db.providerKeys.put(a.id, sealed('openai'));
    expect(await db.providerKeys.list(b.id)).toEqual([]);
    expect(await db.providerKeys.get(b.id, 'openai')).toBeUndefined();
    expect(await db.providerKeys.delete(b.id, 'openai')).toBe(false);
    expect(await db.providerKeys.get(a.id, 'openai')).toBeDefined();
  });

  it('refuses writes for unknown organisations and reads malformed ids as empty', async () => {
    const db = getDb();
    await expect(db.providerKeys.put(randomUUID(), sealed('openai'))).rejects.toThrow();
    expect(await db.providerKeys.list('not-a-uuid')).toEqual([]);
    expect(await db.providerKeys.get('not-a-uuid', 'openai')).toBeUndefined();
    expect(await db.providerKeys.delete('not-a-uuid', 'openai')).toBe(false);
  });

  it('keeps one row per provider under concurrent puts', async () => {
    const db = getDb();
    const org = await createTestOrg(db);
    const results = await Promise.all(['a', 'b', 'c', 'd'].map((last4) => db.providerKeys.put(org.id, sealed('mistral', { last4 }))));
    expect(results.filter((result) => result.created)).toHaveLength(1);
    const keys = await db.providerKeys.list(org.id);
    expect(keys).toHaveLength(1);
    expect(['a', 'b', 'c', 'd']).toContain(keys[0]?.last4);
  });
}
