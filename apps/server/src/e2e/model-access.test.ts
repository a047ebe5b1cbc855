import Anthropic from '@anthropic-ai/sdk';
import { type MockUpstream, startMockUpstream } from '@svc/mock-upstream';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminRequest, startGateway, upstreamProviders } from './harness.js';

type Gateway = Awaited<ReturnType<typeof startGateway>>;
type Access = { allow?: string[]; deny?: string[] } | null;
const question = (content: string) => [{ role: 'user' as const, content }];
const notAllowed = { status: 403, type: 'authorization_error', code: 'model_not_allowed' };

/** Issue 32, allowlists: keys and organisations limited to models and aliases, through the admin API. */
describe('model access lists (admin API, mock upstream)', () => {
  let upstream: MockUpstream;
  let gateway: Gateway;
  let orgId: string;

  const admin = (method: string, path: string, body?: unknown) => adminRequest(gateway.controlUrl, method, path, body);
  const keyWith = async (modelAccess: Access) => {
    const created = await admin('POST', '/v1/admin/keys', { org_id: orgId, scopes: ['inference:chat'], model_access: modelAccess });
    expect(created.status).toBe(201);
    return { id: created.body.id as string, openai: new OpenAI({ baseURL: `${gateway.inferenceUrl}/v1`, apiKey: created.body.key as string, maxRetries: 0 }), secret: created.body.key as string };
  };

  beforeAll(async () => {
    upstream = await startMockUpstream({ tokens: 6 });
    gateway = await startGateway(upstreamProviders(upstream.url));
    const org = await admin('POST', '/v1/admin/orgs', { name: `access-e2e-${Date.now()}` });
    orgId = org.body.id as string;
  });
  afterAll(async () => {
    await gateway?.stop();
    await upstream?.close();
  });

  it("refuses an explicit model outside the key's allow list with 403 model_not_allowed naming it, before any upstream call", async () => {
    const { openai } = await keyWith({ allow: ['openai/gpt-4o-mini'] });
    const before = upstream.stats().total;
    const refused = openai.chat.completions.create({ model: 'anthropic/claude-sonnet-4-5', messages: question('Hi') });
    await expect(refused).rejects.toBeInstanceOf(OpenAI.PermissionDeniedError);
    await expect(refused).rejects.toMatchObject({ ...notAllowed, param: 'model', message: expect.stringContaining('anthropic/claude-sonnet-4-5') });
    expect(upstream.stats().total).toBe(before);
    // The allowed model, by slug or by its upstream name, is served.
    await expect(openai.chat.completions.create({ model: 'openai/gpt-4o-mini', messages: question('Hi') })).resolves.toMatchObject({ model: 'openai/gpt-4o-mini' });
    await expect(openai.chat.completions.create({ model: 'gpt-4o-mini', messages: question('Hi') })).resolves.toMatchObject({ model: 'openai/gpt-4o-mini' });
    // A fallback outside the list is refused too, naming its place.
    const fallback = openai.chat.completions.create({ model: 'openai/gpt-4o-mini', messages: question('Hi'), models: ['anthropic/claude-sonnet-4-5'] } as OpenAI.ChatCompletionCreateParamsNonStreaming);
    await expect(fallback).rejects.toMatchObject({ ...notAllowed, param: 'models[0]' });
  });

  it('routes auto only among the models the key may use', async () => {
    const { openai } = await keyWith({ allow: ['anthropic/*'] });
    for (const content of ['Write a haiku about rain.', 'Prove that the square root of 2 is irrational, step by step.', 'Translate "good morning" to French.']) {
      const completion = await openai.chat.completions.create({ model: 'auto', messages: question(content) }, { headers: { 'x-intelligence-mode': 'proxy' } });
      expect(completion.model).toMatch(/^anthropic\//);
      expect(upstream.stats().lastRequest!.path).toBe('/v1/messages');
    }
  });

  it('a deny list wins, aliases are listed as aliases, and the Anthropic SDK sees the same 403', async () => {
    const { secret, openai } = await keyWith({ deny: ['svc/auto', 'claude-sonnet-4-5'] });
    // `auto` is the alias `svc/auto`.
    await expect(openai.chat.completions.create({ model: 'auto', messages: question('Hi') })).rejects.toMatchObject({ ...notAllowed, message: expect.stringContaining("'auto'") });
    const anthropic = new Anthropic({ baseURL: gateway.inferenceUrl, apiKey: secret, maxRetries: 0 });
    const refused = anthropic.messages.create({ model: 'anthropic/claude-sonnet-4-5', max_tokens: 16, messages: question('Hi') });
    await expect(refused).rejects.toBeInstanceOf(Anthropic.PermissionDeniedError);
    await expect(refused).rejects.toMatchObject({ status: 403 });
    // Other aliases and models stay open.
    await expect(openai.chat.completions.create({ model: 'svc/auto-value', messages: question('Hi') })).resolves.toMatchObject({ object: 'chat.completion' });
  });

  it('an alias with no model left to pick is a clear 403', async () => {
    const { openai } = await keyWith({ allow: ['acme/nothing'] });
    await expect(openai.chat.completions.create({ model: 'svc/auto', messages: question('Hi') })).rejects.toMatchObject({ ...notAllowed, message: expect.stringContaining('allows no available model') });
  });

  it("holds a key to its organisation's lists too, and the organisation's change applies to the next request", async () => {
    const { openai } = await keyWith({ allow: ['openai/*', 'anthropic/*'] });
    await expect(openai.chat.completions.create({ model: 'anthropic/claude-sonnet-4-5', messages: question('Hi') })).resolves.toMatchObject({ object: 'chat.completion' });
    const patched = await admin('PATCH', `/v1/admin/orgs/${orgId}`, { model_access: { deny: ['anthropic/*'] } });
    expect(patched).toMatchObject({ status: 200, body: { model_access: { allow: [], deny: ['anthropic/*'] } } });
    await expect.poll(() => openai.chat.completions.create({ model: 'anthropic/claude-sonnet-4-5', messages: question('Hi') }).then(() => 200, (error: { status: number }) => error.status)).toBe(403);
    await expect(openai.chat.completions.create({ model: 'openai/gpt-4o-mini', messages: question('Hi') })).resolves.toMatchObject({ object: 'chat.completion' });
    expect((await admin('PATCH', `/v1/admin/orgs/${orgId}`, { model_access: null })).body.model_access).toBeNull();
  });

  it('holds single-model endpoints to the lists too: embeddings', async () => {
    const created = await admin('POST', '/v1/admin/keys', { org_id: orgId, scopes: ['inference:embeddings'], model_access: { deny: ['openai/*'] } });
    const client = new OpenAI({ baseURL: `${gateway.inferenceUrl}/v1`, apiKey: created.body.key as string, maxRetries: 0 });
    const before = upstream.stats().total;
    await expect(client.embeddings.create({ model: 'openai/text-embedding-3-small', input: 'x' })).rejects.toMatchObject(notAllowed);
    expect(upstream.stats().total).toBe(before);
  });

  it('the admin API takes model_access strictly on keys and organisations, and shows it', async () => {
    const { id } = await keyWith({ allow: ['gpt-4o-mini'] });
    const listed = await admin('GET', `/v1/admin/keys?org_id=${orgId}`);
    expect((listed.body.data as { id: string; model_access: Access }[]).find((key) => key.id === id)?.model_access).toEqual({ allow: ['gpt-4o-mini'], deny: [] });
    const typo = await admin('PATCH', `/v1/admin/keys/${id}`, { model_access: { alow: ['gpt-4o'] } });
    expect(typo.status).toBe(400);
    expect(typo.body.error?.param).toContain('alow');
    expect((await admin('PATCH', `/v1/admin/keys/${id}`, { model_access: { allow: [''] } })).status).toBe(400);
    expect((await admin('PATCH', `/v1/admin/orgs/${orgId}`, { model_access: { allow: 'gpt-4o' } })).status).toBe(400);
    const updated = await admin('PATCH', `/v1/admin/keys/${id}`, { model_access: { deny: ['openai/o3'] } });
    expect(updated.body.model_access).toEqual({ allow: [], deny: ['openai/o3'] });
  });
});
