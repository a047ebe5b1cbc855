import { randomUUID } from 'node:crypto';
import { type MockUpstream, startMockUpstream } from '@svc/mock-upstream';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCall, startGateway } from './harness.js';

type Gateway = Awaited<ReturnType<typeof startGateway>>;
type WithMetadata = { svc_metadata?: { cost_attribution: string; provider: string } };

const platformKey = 'sk-platform-openai-0000';
const orgKey = 'sk-org-acme-own-key-1111';
/** An organisation key the upstream rate-limits on every request (faultKeys). */
const exhaustedKey = 'sk-org-over-quota-key-2222';

/**
 * BYOK end to end: keys stored through the control plane, requests through the inference app,
 * the real OpenAI adapter against the mock upstream, which records the credential it was sent.
 */
describe('bring your own key', () => {
  let upstream: MockUpstream;
  let gateway: Gateway;

  beforeAll(async () => {
    upstream = await startMockUpstream({ tokens: 8, faultKeys: { [exhaustedKey]: '429' } });
    gateway = await startGateway({
      // Identical requests must reach the upstream: no answer cache here.
      SVC_CACHE_TTL_SECS: '0',
      SVC_ENCRYPTION_KEY: Buffer.alloc(32, 42).toString('hex'),
      OPENAI_API_KEY: platformKey,
      OPENAI_BASE_URL: `${upstream.url}/v1`,
    });
  });
  afterAll(async () => {
    await gateway?.stop();
    await upstream?.close();
  });

  const admin = <T>(method: string, path: string, body?: unknown): Promise<T> => adminCall<T>(gateway.controlUrl, method, path, body);

  /** A new organisation, optionally with its own OpenAI key, and an SDK client on one of its API keys. */
  async function organisation(ownKey?: string): Promise<OpenAI> {
    const org = await admin<{ id: string }>('POST', '/v1/admin/orgs', { name: `byok-${randomUUID()}` });
    if (ownKey) await admin('PUT', `/v1/admin/orgs/${org.id}/provider-keys/openai`, { api_key: ownKey });
    const { key } = await admin<{ key: string }>('POST', '/v1/admin/keys', { org_id: org.id });
    return new OpenAI({ baseURL: `${gateway.inferenceUrl}/v1`, apiKey: key, maxRetries: 0 });
  }

  const ask = (client: OpenAI) => client.chat.completions.create({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });
  const sentKey = () => upstream.stats().lastRequest?.headers.authorization;

  it("serves an organisation with its own key and attributes the answer byok; another organisation stays on the platform key (svc)", async () => {
    const acme = await organisation(orgKey);
    const plain = await organisation();

    const own = (await ask(acme)) as WithMetadata;
    expect(sentKey()).toBe(`Bearer ${orgKey}`);
    expect(own.svc_metadata).toMatchObject({ cost_attribution: 'byok', provider: 'openai' });

    const platform = (await ask(plain)) as WithMetadata;
    expect(sentKey()).toBe(`Bearer ${platformKey}`);
    expect(platform.svc_metadata?.cost_attribution).toBe('svc');
  });

  it('attributes streams too (svc_metadata on the last finish chunk)', async () => {
    const acme = await organisation(orgKey);
    const stream = await acme.chat.completions.create({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], stream: true });
    let attribution: string | undefined;
    for await (const chunk of stream) attribution = (chunk as WithMetadata).svc_metadata?.cost_attribution ?? attribution;
    expect(sentKey()).toBe(`Bearer ${orgKey}`);
    expect(attribution).toBe('byok');
  });

  it("does not fall back to the platform key when the organisation's own key is refused upstream", async () => {
    const limited = await organisation(exhaustedKey);
    upstream.resetStats();
    const error = await ask(limited).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(429);
    const stats = upstream.stats();
    // Every request that reached the upstream carried the organisation's (faulted) key.
    expect(stats.total).toBeGreaterThan(0);
    expect(stats.faults).toBe(stats.total);
  });
});
