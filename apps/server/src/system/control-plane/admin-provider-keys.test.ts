import { randomUUID } from 'node:crypto';
import { ByokService, CredentialCipher, parseEncryptionKey } from '@svc/byok';
import { createInferenceApp } from '@svc/inference';
import { type Runtime, createRuntime } from '../../runtime/runtime.js';
import { parseEnv } from '../../runtime/env.js';
import { providerConfig } from '../../runtime/provider-config.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createControlPlaneApp } from '@svc/control-plane';
import { masterKey } from '../../e2e/harness.js';

// The master key every suite on the shared PostgreSQL uses: a different one would supersede theirs.
const master = masterKey;
const encryptionKey = Buffer.alloc(32, 7).toString('base64');
const platformKey = 'sk-platform-0000000000';
const orgKey = 'sk-org-own-key-1234567890-wxyz';
const completion = {
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1753781234,
  model: 'gpt-4o-mini',
  choices: [{ index: 0, message: { role: 'assistant', content: 'hello' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 },
};

/** What the upstream saw: one Authorization header per provider call. */
const upstream: string[] = [];
const fetch: typeof globalThis.fetch = async (_input, init) => {
  upstream.push(new Headers(init?.headers).get('authorization') ?? '');
  return new Response(JSON.stringify(completion), { status: 200, headers: { 'content-type': 'application/json' } });
};

const envVars = {
  SVC_DATA_DIR: 'memory://', SVC_SENTENCE_ENCODER: 'hashed',
  SVC_MASTER_KEY: master,
  SVC_ENCRYPTION_KEY: encryptionKey,
  OPENAI_API_KEY: platformKey,
  OPENAI_BASE_URL: 'http://upstream.test/v1',
  SVC_CACHE_TTL_SECS: '0',
  LOG_LEVEL: 'silent',
};
let runtime: Runtime;
let control: ReturnType<typeof createControlPlaneApp>;
let inference: ReturnType<typeof createInferenceApp>;

beforeAll(async () => {
  runtime = await createRuntime(parseEnv(envVars), { fetch });
  control = createControlPlaneApp({ ...runtime, maxBodyBytes: 64 * 1024 });
  inference = createInferenceApp({ ...runtime, maxBodyBytes: 64 * 1024 });
});
afterAll(async () => {
  await runtime?.close();
});

const call = (method: string, path: string, body?: unknown, key: string | null = master) =>
  control.request(path, {
    method,
    headers: { ...(key === null ? {} : { authorization: `Bearer ${key}` }), 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
async function json<T = Record<string, unknown>>(response: Response, status = 200): Promise<T> {
  expect(response.status, await response.clone().text()).toBe(status);
  return (await response.json()) as T;
}
const newOrg = () => runtime.db.orgs.ensure(`byok-${randomUUID()}`);

/** One chat request: the Authorization the upstream saw and the answer's cost attribution. */
async function chatAs(app: ReturnType<typeof createInferenceApp>, secret: string): Promise<[string | undefined, string]> {
  const response = await app.request('/v1/chat/completions', {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: `hi ${randomUUID()}` }] }),
  });
  const body = await json<{ svc_metadata: { cost_attribution: string } }>(response);
  return [upstream.at(-1), body.svc_metadata.cost_attribution];
}

describe('BYOK provider keys admin API', () => {
  it('needs the admin role', async () => {
    const org = await newOrg();
    const plain = await runtime.authenticator.issue({ orgId: org.id, scopes: ['inference:chat', 'observability:read'] });
    for (const [method, path] of [
      ['GET', `/v1/admin/orgs/${org.id}/provider-keys`],
      ['PUT', `/v1/admin/orgs/${org.id}/provider-keys/openai`],
      ['DELETE', `/v1/admin/orgs/${org.id}/provider-keys/openai`],
    ] as const) {
      const body = method === 'PUT' ? { api_key: orgKey } : undefined;
      expect((await call(method, path, body, null)).status, `${method} ${path} without a key`).toBe(401);
      expect(await json(await call(method, path, body, plain.secret), 403), `${method} ${path} without admin`).toMatchObject({
        error: { type: 'authorization_error', code: 'forbidden' },
      });
    }
    expect(await runtime.db.providerKeys.list(org.id)).toEqual([]);
  });

  it('stores a key (200, masked), lists it, replaces it and deletes it; the secret never comes back', async () => {
    const org = await newOrg();
    const base = `/v1/admin/orgs/${org.id}/provider-keys`;
    expect(await json(await call('GET', base))).toEqual({ object: 'list', data: [] });

    const stored = await json(await call('PUT', `${base}/openai`, { api_key: ` ${orgKey}\n` }));
    expect(stored).toEqual({
      object: 'provider_key',
      org_id: org.id,
      provider: 'openai',
      key_hint: '...wxyz',
      routable: true,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const groq = await json(await call('PUT', `${base}/groq`, { api_key: 'gsk_org_key_abcdefgh_9876' }));
    expect(groq).toMatchObject({ provider: 'groq', key_hint: '...9876', routable: false });

    const listed = await json<{ data: { provider: string }[] }>(await call('GET', base));
    expect(listed.data.map((key) => key.provider)).toEqual(['groq', 'openai']);
    expect(listed.data[1]).toEqual(stored);

    const replaced = await json(await call('PUT', `${base}/openai`, { api_key: 'sk-org-replacement-key-5555' }));
    expect(replaced).toMatchObject({ key_hint: '...5555', created_at: stored.created_at });

    expect(await json(await call('DELETE', `${base}/openai`))).toEqual({ object: 'provider_key', org_id: org.id, provider: 'openai', status: 'deleted' });
    expect(await json(await call('DELETE', `${base}/openai`), 404)).toMatchObject({ error: { type: 'not_found_error', param: 'provider' } });
    expect((await json<{ data: { provider: string }[] }>(await call('GET', base))).data.map((key) => key.provider)).toEqual(['groq']);
    for (const response of [stored, groq, listed, replaced]) expect(JSON.stringify(response)).not.toMatch(/1234567890|abcdefgh|replacement/);
  });

  it('keeps the key encrypted at rest under SVC_ENCRYPTION_KEY, bound to the organisation', async () => {
    const org = await newOrg();
    await json(await call('PUT', `/v1/admin/orgs/${org.id}/provider-keys/openai`, { api_key: orgKey }));
    const row = await runtime.db.providerKeys.get(org.id, 'openai');
    expect(row).toMatchObject({ last4: 'wxyz', keyVersion: parseEncryptionKey(encryptionKey).id });
    expect(Buffer.from(row!.ciphertext).includes(Buffer.from(orgKey))).toBe(false);
    expect(row!.iv).toHaveLength(12);
    expect(row!.tag).toHaveLength(16);
    const cipher = new CredentialCipher(parseEncryptionKey(encryptionKey));
    expect(cipher.open(row!, { orgId: org.id, provider: 'openai' })).toBe(orgKey);
    expect(() => cipher.open(row!, { orgId: randomUUID(), provider: 'openai' })).toThrow();
  });

  it('answers 404 for an unknown organisation', async () => {
    for (const id of [randomUUID(), 'not-a-uuid']) {
      for (const [method, path, body] of [
        ['GET', `/v1/admin/orgs/${id}/provider-keys`, undefined],
        ['PUT', `/v1/admin/orgs/${id}/provider-keys/openai`, { api_key: orgKey }],
        ['DELETE', `/v1/admin/orgs/${id}/provider-keys/openai`, undefined],
      ] as const) {
        expect(await json(await call(method, path, body), 404), `${method} ${path}`).toMatchObject({ error: { type: 'not_found_error', param: 'id' } });
      }
    }
  });

  it('validates the provider id and the body (400 naming the field), never echoing the key', async () => {
    const org = await newOrg();
    const base = `/v1/admin/orgs/${org.id}/provider-keys`;
    for (const provider of ['nope', 'vertex', 'mock', 'OpenAI']) {
      for (const method of ['PUT', 'DELETE']) {
        const error = await json(await call(method, `${base}/${provider}`, method === 'PUT' ? { api_key: orgKey } : undefined), 400);
        expect(error, `${method} ${provider}`).toMatchObject({ error: { type: 'invalid_request_error', param: 'provider' } });
      }
    }
    const cases: unknown[] = [{}, { api_key: 42 }, { api_key: 'short-key' }, { api_key: 'sk-with a space-1234' }, { api_key: 'x'.repeat(4097) }, { key: orgKey }];
    for (const body of cases) {
      const error = await json<{ error: { message: string } }>(await call('PUT', `${base}/openai`, body), 400);
      expect(error, JSON.stringify(body).slice(0, 60)).toMatchObject({ error: { type: 'invalid_request_error', param: 'api_key' } });
      expect(error.error.message).not.toContain('space-1234');
    }
    expect(await json(await call('PUT', `${base}/openai`, '{"api_key":'), 400)).toMatchObject({ error: { code: 'invalid_json' } });
    expect(await runtime.db.providerKeys.list(org.id)).toEqual([]);
  });

  it("serves the organisation's requests with its key (byok) from the next request on, on every instance sharing the kv", async () => {
    const org = await newOrg();
    const { secret } = await runtime.authenticator.issue({ orgId: org.id, scopes: ['inference:chat'] });
    const chat = () => chatAs(inference, secret);
    // Another instance: its own cache over the same store and kv.
    const elsewhere = new ByokService({
      store: runtime.db.providerKeys,
      cipher: new CredentialCipher(parseEncryptionKey(encryptionKey)),
      platform: providerConfig(runtime.env, undefined).config,
      bus: runtime.kv,
    });
    await elsewhere.start();
    try {
      expect(await chat()).toEqual([`Bearer ${platformKey}`, 'svc']);
      expect(await elsewhere.forOrg(org.id)).toBeUndefined();

      await json(await call('PUT', `/v1/admin/orgs/${org.id}/provider-keys/openai`, { api_key: orgKey }));
      expect(await chat()).toEqual([`Bearer ${orgKey}`, 'byok']);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect((await elsewhere.forOrg(org.id))?.get('openai')).toBeDefined();

      await json(await call('DELETE', `/v1/admin/orgs/${org.id}/provider-keys/openai`));
      expect(await chat()).toEqual([`Bearer ${platformKey}`, 'svc']);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(await elsewhere.forOrg(org.id)).toBeUndefined();
    } finally {
      await elsewhere.stop();
    }
  });
});

const sharedStores = process.env.TEST_REDIS_URL && process.env.TEST_DATABASE_URL;
describe.skipIf(!sharedStores && process.env.CI !== 'true')('BYOK across instances (PostgreSQL + Redis)', () => {
  it('a key stored through one instance serves the next requests on another, and its deletion too', async () => {
    const env = parseEnv({ ...envVars, SVC_DATA_DIR: undefined, DATABASE_URL: process.env.TEST_DATABASE_URL, REDIS_URL: process.env.TEST_REDIS_URL });
    const [a, b] = await Promise.all([createRuntime(env, { fetch }), createRuntime(env, { fetch })]);
    try {
      const controlA = createControlPlaneApp({ ...a, maxBodyBytes: 64 * 1024 });
      const inferenceB = createInferenceApp({ ...b, maxBodyBytes: 64 * 1024 });
      const org = await a.db.orgs.ensure(`byok-shared-${randomUUID()}`);
      const { secret } = await a.authenticator.issue({ orgId: org.id, scopes: ['inference:chat'] });
      const put = (method: string, body?: unknown) =>
        controlA.request(`/v1/admin/orgs/${org.id}/provider-keys/openai`, {
          method,
          headers: { authorization: `Bearer ${master}`, 'content-type': 'application/json' },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });

      expect(await chatAs(inferenceB, secret)).toEqual([`Bearer ${platformKey}`, 'svc']); // B caches "none"
      await json(await put('PUT', { api_key: orgKey }));
      await expect.poll(() => chatAs(inferenceB, secret), { timeout: 1_000, interval: 50 }).toEqual([`Bearer ${orgKey}`, 'byok']);
      await json(await put('DELETE'));
      await expect.poll(() => chatAs(inferenceB, secret), { timeout: 1_000, interval: 50 }).toEqual([`Bearer ${platformKey}`, 'svc']);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
