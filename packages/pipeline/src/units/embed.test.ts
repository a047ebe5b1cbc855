import { createCatalog } from '@svc/catalog';
import { ProviderError, type ProviderErrorKind } from '@svc/core';
import type { EmbeddingRequest, Provider } from '@svc/providers';
import { createMetrics } from '@svc/telemetry';
import { describe, expect, it } from 'vitest';
import { type EmbedDeps, embed } from './embed.js';
import type { Exchange } from '../gateway.js';
import type { UsageEvent } from '../learn/learn-queue.js';
import { caller } from '../test/gateway-harness.js';

const catalog = createCatalog().forProviders(new Set(['openai', 'azure', 'groq']));

/** An embeddings provider answering `[index, length]` vectors, or failing with `fail` per call. */
function embedder(id: string, fail?: (call: number) => ProviderErrorKind | undefined) {
  const requests: EmbeddingRequest[] = [];
  const provider: Provider = {
    id,
    chat: () => Promise.reject(new Error('not used')),
    stream: () => Promise.reject(new Error('not used')),
    async embed(request) {
      requests.push(request);
      const kind = fail?.(requests.length);
      if (kind) throw new ProviderError({ provider: id, kind, message: `${id} ${kind}`, upstreamStatus: kind === 'invalid_request' ? 400 : 503 });
      return {
        model: request.model,
        embeddings: request.input.map((text, i) => new Float32Array([i, text.length])),
        usage: { promptTokens: 10 * request.input.length, totalTokens: 10 * request.input.length },
      };
    },
  };
  return { provider, requests };
}

function setup(providers: Provider[]) {
  const usage: UsageEvent[] = [];
  const byId = new Map(providers.map((p) => [p.id, p]));
  const deps: EmbedDeps = {
    catalog,
    providers: { get: (id) => byId.get(id) },
    learn: { recordUsage: (event) => usage.push(event) },
    metrics: createMetrics({ defaultMetrics: false }),
  };
  const context: Exchange = { caller, requestId: 'req_1', startedAt: performance.now(), signal: new AbortController().signal, mode: 'full' };
  return { deps, usage, context };
}

describe('embed', () => {
  it('answers vectors in input order, prices the prompt tokens and records the ledger row', async () => {
    const openai = embedder('openai');
    const { deps, usage, context } = setup([openai.provider]);
    const out = await embed(deps, { model: 'text-embedding-3-small', input: ['a', 'bbb'], dimensions: 512, user: 'u' }, context);
    expect(out.model).toBe('openai/text-embedding-3-small');
    expect(out.embeddings.map((v) => Array.from(v))).toEqual([[0, 1], [1, 3]]);
    expect(openai.requests[0]).toEqual({ model: 'text-embedding-3-small', input: ['a', 'bbb'], dimensions: 512, user: 'u' });
    expect(out.usage).toEqual({ promptTokens: 20, totalTokens: 20 });
    // 20 tokens at $0.02 per million.
    expect(out.metadata).toMatchObject({ provider: 'openai', requested_model: 'text-embedding-3-small', cost_usd: 4e-7 });
    expect(out.headers['x-svc-model']).toBe('openai/text-embedding-3-small');
    expect(usage).toMatchObject([{ requestId: 'req_1', orgId: 'org_1', model: 'openai/text-embedding-3-small', promptTokens: 20, completionTokens: 0, costUsd: 4e-7, cacheHit: false }]);
  });

  it('falls back within the family after a retryable failure, never to another family', async () => {
    const openai = embedder('openai', () => 'overloaded');
    const azure = embedder('azure');
    const { deps, usage, context } = setup([openai.provider, azure.provider]);
    const out = await embed(deps, { model: 'openai/text-embedding-3-small', input: ['x'] }, context);
    expect(out.model).toBe('azure/text-embedding-3-small');
    expect(usage[0]!.provider).toBe('azure');

    const failing = setup([embedder('openai', () => 'overloaded').provider]);
    await expect(embed(failing.deps, { model: 'openai/text-embedding-3-small', input: ['x'] }, failing.context)).rejects.toMatchObject({ provider: 'openai', kind: 'overloaded' });
    expect(failing.usage).toEqual([]);
  });

  it('returns a caller fault at once', async () => {
    const openai = embedder('openai', () => 'invalid_request');
    const azure = embedder('azure');
    const { deps, context } = setup([openai.provider, azure.provider]);
    await expect(embed(deps, { model: 'openai/text-embedding-3-small', input: ['x'] }, context)).rejects.toMatchObject({ status: 400 });
    expect(azure.requests).toEqual([]);
  });

  it("serves an organisation's own key first and attributes the answer byok", async () => {
    const platform = embedder('openai');
    const own = embedder('openai');
    const { deps, context } = setup([platform.provider]);
    const out = await embed({ ...deps, byok: { forOrg: async (orgId) => (orgId === 'org_1' ? { get: (id) => (id === 'openai' ? own.provider : undefined) } : undefined) } }, { model: 'auto', input: ['x'] }, context);
    expect(out.metadata.cost_attribution).toBe('byok');
    expect([own.requests.length, platform.requests.length]).toEqual([1, 0]);
  });

  it('picks the cheapest served embedding model for auto', async () => {
    const { deps, context } = setup([embedder('openai').provider]);
    expect((await embed(deps, { model: 'svc/auto', input: ['x'] }, context)).model).toBe('openai/text-embedding-3-small');
  });

  it('refuses chat models, unknown models and oversized dimensions with a 400', async () => {
    const { deps, context } = setup([embedder('openai').provider]);
    const chat = catalog.list({ kind: 'chat', provider: 'openai' })[0]!;
    await expect(embed(deps, { model: chat.id, input: ['x'] }, context)).rejects.toMatchObject({ status: 404, code: 'model_not_found', param: 'model' });
    await expect(embed(deps, { model: 'nope/nothing', input: ['x'] }, context)).rejects.toMatchObject({ status: 404, code: 'model_not_found' });
    await expect(embed(deps, { model: 'openai/text-embedding-3-small', input: ['x'], dimensions: 4096 }, context)).rejects.toMatchObject({ status: 400, param: 'dimensions' });
  });
});
