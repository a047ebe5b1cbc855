import { type MockUpstream, startMockUpstream } from '@svc/mock-upstream';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { masterKey, startGateway } from './harness.js';

type Gateway = Awaited<ReturnType<typeof startGateway>>;

interface WithSvc {
  svc_metadata?: { provider?: string; not_applied?: string[]; cost_usd?: number };
}

/** The official SDK's legacy completions and embeddings against the gateway (mock provider). */
describe('openai SDK: completions and embeddings (mock provider)', () => {
  let gateway: Gateway;
  let client: OpenAI;

  beforeAll(async () => {
    gateway = await startGateway({ SVC_MOCK_PROVIDER: '1' });
    client = new OpenAI({ baseURL: `${gateway.inferenceUrl}/v1`, apiKey: masterKey, maxRetries: 0 });
  });
  afterAll(async () => {
    await gateway?.stop();
  });

  it('answers completions.create with echo, n and stop', async () => {
    const completion = await client.completions.create({ model: 'mock/mock-value', prompt: 'Once upon a time', echo: true, n: 2, stop: ['\n\n'], best_of: 2 });
    expect(completion.object).toBe('text_completion');
    expect(completion.id).toMatch(/^cmpl-/);
    expect(completion.choices.map((c) => c.index)).toEqual([0, 1]);
    for (const choice of completion.choices) {
      expect(choice.text.startsWith('Once upon a time')).toBe(true);
      expect(choice.text.length).toBeGreaterThan('Once upon a time'.length);
      expect(choice.finish_reason).toBe('stop');
    }
    expect(completion.usage!.total_tokens).toBe(completion.usage!.prompt_tokens + completion.usage!.completion_tokens);
    expect((completion as WithSvc).svc_metadata).toMatchObject({ provider: 'mock', not_applied: ['best_of'] });
  });

  it('refuses a streamed completion with 400', async () => {
    const error = await client.completions.create({ model: 'auto', prompt: 'x', stream: true }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).param).toBe('stream');
  });

  it('answers embeddings.create by default in base64, decoded by the SDK', async () => {
    const response = await client.embeddings.create({ model: 'auto', input: 'the quick brown fox' });
    expect(response.object).toBe('list');
    expect(response.model).toBe('mock/mock-embed');
    const vector = response.data[0]!.embedding;
    expect(vector).toHaveLength(256);
    expect(vector.every((x) => typeof x === 'number' && Number.isFinite(x))).toBe(true);
    const norm = Math.sqrt(vector.reduce((sum, x) => sum + x * x, 0));
    expect(norm).toBeCloseTo(1, 4);
    expect(response.usage.total_tokens).toBe(response.usage.prompt_tokens);

    const floats = await client.embeddings.create({ model: 'mock/mock-embed', input: 'the quick brown fox', encoding_format: 'float' });
    expect(floats.data[0]!.embedding).toEqual(vector);
  });

  it('keeps the input order of a batch', async () => {
    const texts = ['alpha', 'beta', 'gamma'];
    const batch = await client.embeddings.create({ model: 'mock/mock-embed', input: texts, encoding_format: 'float' });
    expect(batch.data.map((d) => d.index)).toEqual([0, 1, 2]);
    for (const [i, text] of texts.entries()) {
      const single = await client.embeddings.create({ model: 'mock/mock-embed', input: text, encoding_format: 'float' });
      expect(batch.data[i]!.embedding).toEqual(single.data[0]!.embedding);
    }
  });

  it('answers 404 model_not_found for an unknown or chat model, 403 without the embeddings scope', async () => {
    for (const model of ['no-such-embedder', 'mock/mock-value']) {
      const error = await client.embeddings.create({ model, input: 'x' }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(OpenAI.NotFoundError);
      expect((error as InstanceType<typeof OpenAI.NotFoundError>).code).toBe('model_not_found');
    }
    const org = await gateway.runtime.db.orgs.ensure('e2e-embeddings-scope');
    const chatOnly = (await gateway.runtime.authenticator.issue({ orgId: org.id, scopes: ['inference:chat'] })).secret;
    const limited = new OpenAI({ baseURL: `${gateway.inferenceUrl}/v1`, apiKey: chatOnly, maxRetries: 0 });
    await expect(limited.embeddings.create({ model: 'auto', input: 'x' })).rejects.toBeInstanceOf(OpenAI.PermissionDeniedError);
  });
});

/** Embeddings through the real OpenAI adapter against the project's mock upstream. */
describe('openai SDK: embeddings through the OpenAI adapter (mock upstream)', () => {
  let upstream: MockUpstream;
  let gateway: Gateway;
  let client: OpenAI;

  beforeAll(async () => {
    upstream = await startMockUpstream({ tokens: 12 });
    gateway = await startGateway({ OPENAI_API_KEY: 'sk-upstream-openai', OPENAI_BASE_URL: `${upstream.url}/v1` });
    client = new OpenAI({ baseURL: `${gateway.inferenceUrl}/v1`, apiKey: masterKey, maxRetries: 0 });
  });
  afterAll(async () => {
    await gateway?.stop();
    await upstream?.close();
  });

  it('embeds a batch in order with the upstream model, shortened when asked, priced per prompt token in the ledger', async () => {
    const { data: response, response: raw } = await client.embeddings.create({ model: 'text-embedding-3-small', input: ['one', 'two'], dimensions: 64 }).withResponse();
    expect(response.model).toBe('openai/text-embedding-3-small');
    expect(response.data.map((d) => [d.index, d.embedding.length])).toEqual([
      [0, 64],
      [1, 64],
    ]);
    expect(response.data[0]!.embedding).not.toEqual(response.data[1]!.embedding);
    expect(upstream.stats().byPath['/v1/embeddings']).toBe(1);
    expect(upstream.stats().lastRequest?.body).toMatchObject({ model: 'text-embedding-3-small', input: ['one', 'two'], dimensions: 64 });
    expect((response as WithSvc).svc_metadata).toMatchObject({ provider: 'openai' });
    const cost = (response as WithSvc).svc_metadata!.cost_usd!;
    expect(cost).toBeGreaterThan(0);

    await gateway.runtime.learn.flush();
    const rows = await gateway.runtime.db.usage.listByOrg(raw.headers.get('x-svc-org-id')!, { limit: 10 });
    expect(rows.find((row) => row.requestId === raw.headers.get('x-svc-request-id'))).toMatchObject({
      model: 'openai/text-embedding-3-small',
      provider: 'openai',
      promptTokens: response.usage.prompt_tokens,
      completionTokens: 0,
      costUsd: cost,
    });
  });
});
