import { randomBytes, randomUUID } from 'node:crypto';
import type { ProviderChatRequest, ProviderRegistryConfig } from '@svc/providers';
import { describe, expect, it } from 'vitest';
import { ByokService, type ProviderKeyStore, type StoredProviderKey, UnknownByokProviderError } from './byok-service.js';
import { CredentialCipher } from './credential-cipher.js';
import { deriveDevEncryptionKey, parseEncryptionKey } from './encryption-key.js';

const completion = {
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1753781234,
  model: 'gpt-4o-mini',
  choices: [{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
};
const request: ProviderChatRequest = { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }], stream: false, n: 1, includeUsage: false };

/** A fetch that records the URL and Authorization header of every call. */
function recordingFetch(seen: { url: string; authorization: string | null }[]): typeof globalThis.fetch {
  return async (input, init) => {
    seen.push({ url: String(input), authorization: new Headers(init?.headers).get('authorization') });
    return new Response(JSON.stringify(completion), { status: 200, headers: { 'content-type': 'application/json' } });
  };
}

/** The store as `@svc/db` behaves, in memory. */
function memoryStore(): ProviderKeyStore & { rows: Map<string, StoredProviderKey>; reads: number } {
  const rows = new Map<string, StoredProviderKey>();
  const store = {
    rows,
    reads: 0,
    async list(orgId: string) {
      store.reads += 1;
      return [...rows.entries()].filter(([id]) => id.startsWith(`${orgId}/`)).map(([, row]) => row);
    },
    async put(orgId: string, key: Omit<StoredProviderKey, 'createdAt' | 'updatedAt'>) {
      const id = `${orgId}/${key.provider}`;
      const before = rows.get(id);
      const row = { ...key, createdAt: before?.createdAt ?? new Date(), updatedAt: new Date() };
      rows.set(id, row);
      return { key: row, created: before === undefined };
    },
    async delete(orgId: string, provider: string) {
      return rows.delete(`${orgId}/${provider}`);
    },
  };
  return store;
}

function setup(overrides: { platform?: ProviderRegistryConfig; cipher?: CredentialCipher } = {}) {
  const seen: { url: string; authorization: string | null }[] = [];
  const store = memoryStore();
  const errors: unknown[] = [];
  const byok = new ByokService({
    store,
    cipher: overrides.cipher ?? new CredentialCipher(parseEncryptionKey(randomBytes(32).toString('hex'))),
    platform: overrides.platform ?? { fetch: recordingFetch(seen), openai: { apiKeys: ['sk-platform'], baseUrl: 'http://upstream.test/v1' } },
    onError: (error) => errors.push(error),
  });
  return { byok, store, seen, errors };
}

const secret = 'sk-org-own-0123456789-wxyz';

describe('ByokService', () => {
  it("serves an organisation with its own key on the platform's endpoint", async () => {
    const { byok, seen } = setup();
    const orgId = randomUUID();
    await byok.put(orgId, 'openai', secret);
    const own = await byok.forOrg(orgId);
    await own?.get('openai')?.chat(request);
    expect(seen).toEqual([{ url: 'http://upstream.test/v1/chat/completions', authorization: `Bearer ${secret}` }]);
    expect(own?.get('anthropic')).toBeUndefined();
    expect(await byok.forOrg(randomUUID())).toBeUndefined();
  });

  it('stores only the sealed secret and shows back its last 4 characters', async () => {
    const { byok, store } = setup();
    const orgId = randomUUID();
    const { key, created } = await byok.put(orgId, 'openai', secret);
    expect(created).toBe(true);
    expect(key).toMatchObject({ provider: 'openai', last4: 'wxyz' });
    expect(JSON.stringify(await byok.list(orgId))).not.toContain('0123456789');
    const row = store.rows.get(`${orgId}/openai`)!;
    expect(Buffer.from(row.ciphertext).includes(Buffer.from(secret))).toBe(false);
    expect(row.iv).toHaveLength(12);
    expect((await byok.put(orgId, 'openai', 'sk-org-replacement-9999')).created).toBe(false);
  });

  it('picks up a new, replaced or deleted key at once, and reads the store once per org while cached', async () => {
    const { byok, store, seen } = setup();
    const orgId = randomUUID();
    expect(await byok.forOrg(orgId)).toBeUndefined();
    expect(byok.forOrg(orgId)).toBeUndefined();
    expect(store.reads).toBe(1);

    await byok.put(orgId, 'openai', secret);
    await (await byok.forOrg(orgId))?.get('openai')?.chat(request);
    await byok.put(orgId, 'openai', 'sk-org-rotated-key-5678');
    await (await byok.forOrg(orgId))?.get('openai')?.chat(request);
    expect(seen.map((call) => call.authorization)).toEqual([`Bearer ${secret}`, 'Bearer sk-org-rotated-key-5678']);

    expect(await byok.delete(orgId, 'openai')).toBe(true);
    expect(await byok.forOrg(orgId)).toBeUndefined();
    expect(await byok.delete(orgId, 'openai')).toBe(false);
  });

  it('refuses provider ids no organisation can hold a key for', async () => {
    const { byok } = setup();
    for (const provider of ['vertex', 'mock', 'nope']) {
      await expect(byok.put(randomUUID(), provider, secret)).rejects.toThrow(UnknownByokProviderError);
      expect(byok.supports(provider)).toBe(false);
    }
  });

  it('serves with the platform key (and reports) a credential the configured encryption key cannot open', async () => {
    const { byok, store, errors } = setup();
    const orgId = randomUUID();
    const foreign = new CredentialCipher(deriveDevEncryptionKey('memory://')).seal(secret, { orgId, provider: 'openai' });
    await store.put(orgId, { provider: 'openai', ...foreign, last4: 'wxyz' });
    expect(await byok.forOrg(orgId)).toBeUndefined();
    expect(errors).toHaveLength(1);
    expect(String(errors[0])).toContain(foreign.keyVersion);
    expect(String(errors[0])).not.toContain(secret);
  });
});
