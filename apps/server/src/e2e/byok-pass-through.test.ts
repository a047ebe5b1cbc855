import { randomUUID } from 'node:crypto';
import { type MockUpstream, startMockUpstream } from '@svc/mock-upstream';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCall, startGateway } from './harness.js';

type Gateway = Awaited<ReturnType<typeof startGateway>>;
type WithMetadata = { svc_metadata?: { cost_attribution?: string; provider?: string; model?: string } };

const groq = 'https://api.groq.com/openai/v1';

/**
 * Issue #31: pass-through for a provider only an organisation's own key configures. The platform
 * serves OpenAI only; one organisation stores a Groq key. Its explicit `groq/...` names (listed in
 * the built-in catalog or not) are served with its key; another organisation's are refused. The
 * gateway's fetch sends Groq's address to the mock upstream.
 */
describe("explicit models of a provider only the organisation's own key configures (BYOK)", () => {
  let upstream: MockUpstream;
  let gateway: Gateway;

  beforeAll(async () => {
    upstream = await startMockUpstream({ tokens: 8 });
    const redirect: typeof globalThis.fetch = (input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      return fetch(url.startsWith(groq) ? `${upstream.url}/v1${url.slice(groq.length)}` : url, init);
    };
    gateway = await startGateway(
      { SVC_CACHE_TTL_SECS: '0', SVC_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('hex'), OPENAI_API_KEY: 'sk-platform', OPENAI_BASE_URL: `${upstream.url}/v1` },
      { fetch: redirect },
    );
  });
  afterAll(async () => {
    await gateway?.stop();
    await upstream?.close();
  });

  const admin = <T>(method: string, path: string, body?: unknown): Promise<T> => adminCall<T>(gateway.controlUrl, method, path, body);
  async function organisation(groqKey?: string, passThrough = true): Promise<OpenAI> {
    const org = await admin<{ id: string }>('POST', '/v1/admin/orgs', { name: `byok-pt-${randomUUID()}` });
    if (groqKey) await admin('PUT', `/v1/admin/orgs/${org.id}/provider-keys/groq`, { api_key: groqKey });
    if (!passThrough) await admin('PATCH', `/v1/admin/orgs/${org.id}`, { pass_through_models: false });
    const { key } = await admin<{ key: string }>('POST', '/v1/admin/keys', { org_id: org.id });
    return new OpenAI({ baseURL: `${gateway.inferenceUrl}/v1`, apiKey: key, maxRetries: 0 });
  }
  /** `POST /v1/messages/count_tokens` (the Anthropic wire) with the client's key: its status. */
  const countTokens = async (client: OpenAI, model: string) =>
    (
      await fetch(`${gateway.inferenceUrl}/v1/messages/count_tokens`, {
        method: 'POST',
        headers: { 'x-api-key': client.apiKey ?? '', 'content-type': 'application/json' },
        body: JSON.stringify({ model, messages: [{ role: 'user', content: 'Hello there' }] }),
      })
    ).status;
  const ask = (client: OpenAI, model: string) => client.chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] });
  const sent = () => upstream.stats().lastRequest;

  it("serves the organisation's groq/<model> names with its own key, named or listed; another organisation gets model_not_found", async () => {
    const own = await organisation('gsk-own-key-1234');
    const unlisted = (await ask(own, 'groq/brand-new-groq-model')) as WithMetadata;
    expect(sent()?.headers.authorization).toBe('Bearer gsk-own-key-1234');
    expect((sent()?.body as { model?: string } | undefined)?.model).toBe('brand-new-groq-model');
    expect(unlisted.svc_metadata).toMatchObject({ cost_attribution: 'byok', provider: 'groq', model: 'groq/brand-new-groq-model' });

    const listed = await ask(own, 'groq/llama-3.1-8b-instant').withResponse();
    expect((sent()?.body as { model?: string } | undefined)?.model).toBe('llama-3.1-8b-instant');
    // Listed in the built-in catalog: its price is known (no unpriced cost).
    expect(listed.response.headers.get('x-svc-cost-usd')).not.toBe('unpriced');

    const other = await organisation();
    await expect(ask(other, 'groq/brand-new-groq-model')).rejects.toMatchObject({ status: 404, code: 'model_not_found' });
  });

  it('count_tokens takes the names /v1/messages would serve: passed through, own-key, not for an organisation that turned pass-through off', async () => {
    const own = await organisation('gsk-own-key-5678');
    expect(await countTokens(own, 'openai/gpt-brand-new-2031')).toBe(200);
    expect(await countTokens(own, 'groq/brand-new-groq-model')).toBe(200);
    const other = await organisation();
    expect(await countTokens(other, 'groq/brand-new-groq-model')).toBe(404);
    expect(await countTokens(other, 'nowhere/model')).toBe(404);
    const closed = await organisation(undefined, false);
    expect(await countTokens(closed, 'openai/gpt-brand-new-2031')).toBe(404);
    expect(await countTokens(closed, 'openai/gpt-4o-mini')).toBe(200);
  });
});
