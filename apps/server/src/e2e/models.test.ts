import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type MockUpstream, startMockUpstream } from '@svc/mock-upstream';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { adminCall, masterKey, startGateway, upstreamProviders } from './harness.js';

type Gateway = Awaited<ReturnType<typeof startGateway>>;
type Metadata = { svc_metadata?: { cost_usd: number | null; cost_unpriced?: boolean; provider: string; model: string } };

/** Models as data, end to end: the official SDK against the gateway and the mock upstream, which records what it was sent. */
describe('models the catalog does not list', () => {
  let upstream: MockUpstream;
  /** A vLLM-like OpenAI-compatible server serving two models (its GET /v1/models lists them). */
  let vllm: MockUpstream;
  let gateway: Gateway;
  let client: OpenAI;
  let dir: string;

  beforeAll(async () => {
    upstream = await startMockUpstream({ tokens: 8 });
    vllm = await startMockUpstream({ tokens: 8, models: ['Qwen/Qwen3-32B', 'meta-llama/Llama-3.1-8B-Instruct'] });
    dir = await mkdtemp(join(tmpdir(), 'svc-models-'));
    const config = join(dir, 'svc.yaml');
    await writeFile(
      config,
      [
        'providers:',
        '  myvllm:',
        '    api_keys: vllm-key',
        `    base_url: ${vllm.url}/v1`,
        '    model_defaults:',
        '      input_price_per_mtok: 1',
        '      output_price_per_mtok: 2',
        '      context_window: 32768',
        'models:',
        '  - id: myvllm/custom-llama',
        '    upstream_id: meta-llama/Llama-3.1-8B-Instruct',
        '    input_price_per_mtok: 0.5',
        '    output_price_per_mtok: 1.5',
        '    capabilities: [tools]',
        '  - id: openai/gpt-4o-mini',
        '    input_price_per_mtok: 0.12',
        '    output_price_per_mtok: 0.5',
        '',
      ].join('\n'),
    );
    gateway = await startGateway({ ...upstreamProviders(upstream.url), SVC_CONFIG: config });
    client = new OpenAI({ baseURL: `${gateway.inferenceUrl}/v1`, apiKey: masterKey, maxRetries: 0 });
  });
  afterAll(async () => {
    await gateway?.stop();
    await upstream?.close();
    await vllm?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    upstream.configure({ models: undefined });
    upstream.resetStats();
  });

  const ask = (model: string, sdk = client) => sdk.chat.completions.create({ model, messages: [{ role: 'user', content: 'Say hello' }] }).withResponse();
  const sentModel = (to = upstream) => (to.stats().lastRequest?.body as { model?: string } | undefined)?.model;

  async function ledgerRow(response: Response) {
    await gateway.runtime.learn.flush();
    const rows = await gateway.runtime.db.usage.listByOrg(response.headers.get('x-svc-org-id')!, { limit: 50 });
    return rows.find((row) => row.requestId === response.headers.get('x-svc-request-id'));
  }

  const admin = <T>(method: string, path: string, body?: unknown): Promise<T> => adminCall<T>(gateway.controlUrl, method, path, body);

  it('passes an unknown model of a configured provider through as named, unpriced (never a silent zero)', async () => {
    const { data, response } = await ask('openai/gpt-brand-new-2031');
    expect(sentModel()).toBe('gpt-brand-new-2031');
    expect(upstream.stats().lastRequest?.headers.authorization).toBe('Bearer sk-upstream-openai');
    expect(data.choices[0]!.message.content).toBeTruthy();
    expect(response.headers.get('x-svc-model')).toBe('openai/gpt-brand-new-2031');
    expect(response.headers.get('x-svc-cost-usd')).toBe('unpriced');
    expect(Number(response.headers.get('x-svc-output-tokens'))).toBeGreaterThan(0);
    expect((data as Metadata).svc_metadata).toMatchObject({ cost_usd: null, cost_unpriced: true, provider: 'openai', model: 'openai/gpt-brand-new-2031' });
    const row = await ledgerRow(response);
    expect(row).toMatchObject({ model: 'openai/gpt-brand-new-2031', provider: 'openai', unpriced: true, costUsd: 0 });
    expect(row!.completionTokens).toBeGreaterThan(0);
  });

  it("serves a model discovered from a vLLM-like provider's GET /models at start, priced from its model_defaults", async () => {
    const { data, response } = await ask('myvllm/Qwen/Qwen3-32B');
    expect(vllm.stats().byPath['/v1/models']).toBeGreaterThanOrEqual(1);
    expect(sentModel(vllm)).toBe('Qwen/Qwen3-32B');
    expect(vllm.stats().lastRequest?.headers.authorization).toBe('Bearer vllm-key');
    expect(response.headers.get('x-svc-model')).toBe('myvllm/Qwen/Qwen3-32B');
    const usage = data.usage!;
    const expected = (usage.prompt_tokens * 1 + usage.completion_tokens * 2) / 1e6;
    expect(Number(response.headers.get('x-svc-cost-usd'))).toBeCloseTo(expected, 9);
    expect((data as Metadata).svc_metadata?.cost_unpriced).toBeUndefined();
    expect(await ledgerRow(response)).toMatchObject({ model: 'myvllm/Qwen/Qwen3-32B', unpriced: false });
  });

  it("answers the provider's own error when the upstream does not have the model", async () => {
    upstream.configure({ models: ['gpt-4o-mini'] });
    const refused = ask('openai/gpt-does-not-exist');
    await expect(refused).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    await expect(refused).rejects.toMatchObject({ status: 404, code: 'model_not_found', message: expect.stringContaining('gpt-does-not-exist') });
    expect(sentModel()).toBe('gpt-does-not-exist');
  });

  it('serves a model added in SVC_CONFIG under its upstream id at its configured price', async () => {
    const { data, response } = await ask('myvllm/custom-llama');
    expect(sentModel(vllm)).toBe('meta-llama/Llama-3.1-8B-Instruct');
    const usage = data.usage!;
    expect(Number(response.headers.get('x-svc-cost-usd'))).toBeCloseTo((usage.prompt_tokens * 0.5 + usage.completion_tokens * 1.5) / 1e6, 9);
  });

  it('bills a catalog model at the price SVC_CONFIG overrides, in x-svc-cost-usd and the ledger', async () => {
    const { data, response } = await ask('openai/gpt-4o-mini');
    const usage = data.usage!;
    const expected = (usage.prompt_tokens * 0.12 + usage.completion_tokens * 0.5) / 1e6;
    expect(Number(response.headers.get('x-svc-cost-usd'))).toBeCloseTo(expected, 9);
    expect((await ledgerRow(response))!.costUsd).toBeCloseTo(expected, 9);
  });

  it("serves an OpenAI fine-tune at OpenAI's fine-tuned price, the id sent upstream as named", async () => {
    const { data, response } = await ask('ft:gpt-4o-mini-2024-07-18:acme::abc123');
    expect(sentModel()).toBe('ft:gpt-4o-mini-2024-07-18:acme::abc123');
    expect(response.headers.get('x-svc-model')).toBe('openai/ft:gpt-4o-mini-2024-07-18:acme::abc123');
    const usage = data.usage!;
    expect(Number(response.headers.get('x-svc-cost-usd'))).toBeCloseTo((usage.prompt_tokens * 0.3 + usage.completion_tokens * 1.2) / 1e6, 9);
    expect(await ledgerRow(response)).toMatchObject({ model: 'openai/ft:gpt-4o-mini-2024-07-18:acme::abc123', unpriced: false });
  });

  it("serves dated snapshots at their family's price, sent upstream exactly as the client named them", async () => {
    const { response } = await ask('claude-haiku-4-5-20251001');
    expect(upstream.stats().lastRequest?.path).toBe('/v1/messages');
    expect(sentModel()).toBe('claude-haiku-4-5-20251001');
    expect(response.headers.get('x-svc-provider')).toBe('anthropic');
    await ask('openai/gpt-4o-2024-08-06');
    expect(sentModel()).toBe('gpt-4o-2024-08-06');
  });

  it('lists catalog, configured and passed-through models with where each came from (svc.source)', async () => {
    const listed = new Map<string, { svc?: { source: string; unpriced?: boolean } }>();
    for await (const model of client.models.list()) listed.set(model.id, model as { svc?: { source: string; unpriced?: boolean } });
    expect(listed.get('openai/gpt-4o')?.svc).toEqual({ source: 'catalog' });
    expect(listed.get('myvllm/custom-llama')?.svc).toEqual({ source: 'config' });
    expect(listed.get('openai/gpt-brand-new-2031')?.svc).toEqual({ source: 'passthrough', unpriced: true });
    expect(listed.get('myvllm/Qwen/Qwen3-32B')?.svc).toEqual({ source: 'discovered' });
    expect(listed.get('svc/auto')?.svc).toEqual({ source: 'alias' });
    const tuned = await client.models.retrieve('openai/ft:gpt-4o-mini-2024-07-18:acme::abc123');
    expect(tuned).toMatchObject({ id: 'openai/ft:gpt-4o-mini-2024-07-18:acme::abc123', owned_by: 'openai' });
    await expect(client.models.retrieve('openai/never-named-model')).rejects.toMatchObject({ status: 404 });
  });

  it('refuses unknown providers, and organisations that turned pass-through off', async () => {
    await expect(ask('nobody/some-model')).rejects.toMatchObject({ status: 404, code: 'model_not_found' });
    const org = await admin<{ id: string; pass_through_models: boolean }>('POST', '/v1/admin/orgs', { name: `strict-${randomUUID()}`, pass_through_models: false });
    expect(org.pass_through_models).toBe(false);
    const { key } = await admin<{ key: string }>('POST', '/v1/admin/keys', { org_id: org.id });
    const strict = new OpenAI({ baseURL: `${gateway.inferenceUrl}/v1`, apiKey: key, maxRetries: 0 });
    const before = upstream.stats().total;
    await expect(ask('openai/gpt-brand-new-2031', strict)).rejects.toMatchObject({ status: 404, code: 'model_not_found', param: 'model' });
    expect(upstream.stats().total).toBe(before);
    // Catalog models are unaffected.
    const { response } = await ask('openai/gpt-4o-mini', strict);
    expect(Number(response.headers.get('x-svc-cost-usd'))).toBeGreaterThan(0);
    const reopened = await admin<{ pass_through_models: boolean }>('PATCH', `/v1/admin/orgs/${org.id}`, { pass_through_models: true });
    expect(reopened.pass_through_models).toBe(true);
  });
});
