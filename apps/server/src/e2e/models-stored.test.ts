import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type MockUpstream, startMockUpstream } from '@svc/mock-upstream';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCall, masterKey, startGateway } from './harness.js';

type Gateway = Awaited<ReturnType<typeof startGateway>>;
const shared = process.env.TEST_REDIS_URL && process.env.TEST_DATABASE_URL;

/**
 * Issue #31: models are data. Two gateways on one PostgreSQL and Redis; a model stored through
 * instance A's admin API is served by instance B without a restart, with the official SDK. The
 * gateways' only provider besides the mock is `e2emodels` (an OpenAI-compatible mock upstream),
 * which no other suite configures: the entries stored here are served by these two gateways
 * only (any other gateway on the database leaves out entries of a provider it does not have).
 */
describe.skipIf(!shared && process.env.CI !== 'true')('models stored through the admin API, served by every instance', () => {
  let upstream: MockUpstream;
  let a: Gateway;
  let b: Gateway;
  let clientB: OpenAI;
  let dir: string;
  const suffix = randomUUID().slice(0, 8);
  const added = `e2emodels/acme-chat-${suffix}`;
  const listed = `listed-${suffix}`;

  beforeAll(async () => {
    upstream = await startMockUpstream({ tokens: 8, models: [listed, `base-${suffix}`] });
    dir = await mkdtemp(join(tmpdir(), 'svc-models-stored-'));
    const config = join(dir, 'svc.yaml');
    await writeFile(
      config,
      ['providers:', '  e2emodels:', '    api_keys: e2e-key', `    base_url: ${upstream.url}/v1`, 'models:', `  - id: e2emodels/base-${suffix}`, '    input_price_per_mtok: 1', '    output_price_per_mtok: 2', ''].join('\n'),
    );
    const env = { DATABASE_URL: process.env.TEST_DATABASE_URL ?? '', REDIS_URL: process.env.TEST_REDIS_URL ?? '', SVC_CONFIG: config, SVC_CACHE_TTL_SECS: '0', SVC_SEMANTIC_CACHE: '0' };
    [a, b] = await Promise.all([startGateway(env), startGateway(env)]);
    clientB = new OpenAI({ baseURL: `${b.inferenceUrl}/v1`, apiKey: masterKey, maxRetries: 0 });
  });
  afterAll(async () => {
    for (const id of [added, `e2emodels/base-${suffix}`, `e2emodels/old-${suffix}`]) {
      await fetch(`${a?.controlUrl}/v1/admin/models/${encodeURIComponent(id)}`, { method: 'DELETE', headers: { authorization: `Bearer ${masterKey}` } }).catch(() => undefined);
    }
    await Promise.all([a?.stop(), b?.stop()]);
    await upstream?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const admin = <T>(method: string, path: string, body?: unknown): Promise<T> => adminCall<T>(a.controlUrl, method, path, body);
  const put = (id: string, body: unknown) => fetch(`${a.controlUrl}/v1/admin/models/${encodeURIComponent(id)}`, { method: 'PUT', headers: { authorization: `Bearer ${masterKey}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const ask = (model: string) => clientB.chat.completions.create({ model, messages: [{ role: 'user', content: `Say hello ${Math.random()}` }] }).withResponse();
  const sentModel = () => (upstream.stats().lastRequest?.body as { model?: string } | undefined)?.model;
  const sourceOnB = async (id: string) => ((await clientB.models.retrieve(id)) as unknown as { svc?: { source?: string } }).svc?.source;

  /** The response's ledger row; its usage is recorded as the answer is sent, so a loaded machine may need a few flushes to see it. */
  async function ledgerRow(gateway: Gateway, response: Response) {
    const find = async () => {
      await gateway.runtime.learn.flush();
      const rows = await gateway.runtime.db.usage.listByOrg(response.headers.get('x-svc-org-id')!, { limit: 50 });
      return rows.find((row) => row.requestId === response.headers.get('x-svc-request-id'));
    };
    await expect.poll(find, { timeout: 5_000, interval: 25 }).toBeDefined();
    return find();
  }

  it('a model added on instance A is served by instance B under its upstream id and price, without a restart', async () => {
    // Unknown until stored: passed through as named, and the provider does not serve that name.
    await expect(ask(added)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    expect(sentModel()).toBe(`acme-chat-${suffix}`);

    const created = await put(added, { upstream_id: listed, input_price_per_mtok: 3, output_price_per_mtok: 6, tier: 'T3', capabilities: ['tools'] });
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ object: 'stored_model', id: added, served: { upstream_id: listed, source: 'stored', input_price_per_mtok: 3 } });

    await expect.poll(() => sourceOnB(added), { timeout: 2_000, interval: 25 }).toBe('stored');
    const { data, response } = await ask(added);
    expect(sentModel()).toBe(listed);
    expect(response.headers.get('x-svc-model')).toBe(added);
    const usage = data.usage!;
    const expected = (usage.prompt_tokens * 3 + usage.completion_tokens * 6) / 1e6;
    expect(Number(response.headers.get('x-svc-cost-usd'))).toBeCloseTo(expected, 9);
    expect(await ledgerRow(b, response)).toMatchObject({ model: added, unpriced: false });
    expect((await ledgerRow(b, response))!.costUsd).toBeCloseTo(expected, 9);
  }, 30_000);

  it("a price override of a listed model reaches instance B's x-svc-cost-usd and ledger; deleting it restores the listed price", async () => {
    const id = `e2emodels/base-${suffix}`;
    const priced = async (input: number, output: number) => {
      const { data, response } = await ask(id);
      const usage = data.usage!;
      return Math.abs(Number(response.headers.get('x-svc-cost-usd')) - (usage.prompt_tokens * input + usage.completion_tokens * output) / 1e6) < 1e-12 ? response : undefined;
    };
    expect(await priced(1, 2)).toBeDefined();
    expect((await put(id, { input_price_per_mtok: 30, output_price_per_mtok: 60 })).status).toBe(201);
    await expect.poll(async () => (await priced(30, 60)) !== undefined, { timeout: 2_000, interval: 25 }).toBe(true);
    const response = (await priced(30, 60))!;
    const row = await ledgerRow(b, response);
    expect(row!.costUsd).toBeCloseTo(Number(response.headers.get('x-svc-cost-usd')), 12);

    await admin('DELETE', `/v1/admin/models/${encodeURIComponent(id)}`);
    await expect.poll(async () => (await priced(1, 2)) !== undefined, { timeout: 2_000, interval: 25 }).toBe(true);
  }, 30_000);

  it('refuses unknown fields, bad values and a model of a provider that is not configured, naming them', async () => {
    const typo = await put(added, { input_price_per_mtk: 1 });
    expect(typo.status).toBe(400);
    expect((await typo.json()) as unknown).toMatchObject({ error: { param: 'input_price_per_mtk', message: expect.stringContaining('unknown field') } });
    const negative = await put(added, { output_price_per_mtok: -1 });
    expect(negative.status).toBe(400);
    expect(((await negative.json()) as { error: { param: string } }).error.param).toBe('output_price_per_mtok');
    const stray = await put('nowhere/some-model', { input_price_per_mtok: 1, output_price_per_mtok: 1 });
    expect(stray.status).toBe(400);
    expect(((await stray.json()) as { error: { message: string } }).error.message).toContain("provider 'nowhere'");
    const badId = await put('NotAnId', {});
    expect(badId.status).toBe(400);
  });

  it('a retiring model answers with Deprecation, Sunset and Link headers; once retired, naming it is a 404 naming its replacement', async () => {
    const id = `e2emodels/old-${suffix}`;
    const retiring = { upstream_id: listed, input_price_per_mtok: 1, output_price_per_mtok: 1, replacement: `e2emodels/base-${suffix}`, deprecated_at: '2026-01-01' };
    expect((await put(id, { ...retiring, retires_at: '2099-12-31' })).status).toBe(201);
    await expect.poll(() => sourceOnB(id).catch(() => undefined), { timeout: 2_000, interval: 25 }).toBe('stored');
    const { response } = await ask(id);
    expect(response.headers.get('deprecation')).toBe(`@${Date.parse('2026-01-01T00:00:00Z') / 1000}`);
    expect(response.headers.get('sunset')).toBe('Thu, 31 Dec 2099 00:00:00 GMT');
    expect(response.headers.get('link')).toBe(`</v1/models/${encodeURIComponent(`e2emodels/base-${suffix}`)}>; rel="successor-version"`);

    expect((await put(id, { ...retiring, retires_at: '2020-01-01' })).status).toBe(200);
    const refused = async () => {
      try {
        await ask(id);
        return undefined;
      } catch (error) {
        return error;
      }
    };
    await expect.poll(refused, { timeout: 2_000, interval: 25 }).toBeInstanceOf(OpenAI.NotFoundError);
    expect(await refused()).toMatchObject({ status: 404, code: 'model_retired', message: expect.stringContaining(`Use 'e2emodels/base-${suffix}' instead`) });
  }, 30_000);

  it("the admin refresh reads the provider's model list again on every instance", async () => {
    const fresh = `fresh-${suffix}`;
    await expect(clientB.models.retrieve(`e2emodels/${fresh}`)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    upstream.configure({ models: [listed, `base-${suffix}`, fresh] });
    const refreshed = await admin<{ providers: Array<{ provider: string; models: number | null }>; models: string[] }>('POST', '/v1/admin/models/refresh');
    expect(refreshed.providers).toContainEqual(expect.objectContaining({ provider: 'e2emodels', models: 3 }));
    expect(refreshed.models).toContain(`e2emodels/${fresh}`);
    await expect.poll(() => sourceOnB(`e2emodels/${fresh}`).catch(() => undefined), { timeout: 3_000, interval: 25 }).toBe('discovered');
  }, 30_000);
});
