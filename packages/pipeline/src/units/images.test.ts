import { createCatalog } from '@svc/catalog';
import { ProviderError, type ProviderErrorKind, billingError } from '@svc/core';
import { createMemoryKv } from '@svc/kv';
import type { AdmitRequest, Reservation } from '@svc/billing';
import type { ImageGenerationRequest, ImageUsage, Provider } from '@svc/providers';
import { createMetrics } from '@svc/telemetry';
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../gateway.js';
import { ImageStore } from './image-store.js';
import { type ImageStageDeps, generateImages } from './images.js';
import type { UsageEvent } from '../learn/learn-queue.js';
import { caller } from '../test/gateway-harness.js';

const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP438AAAAQBAYDFKhhdAAAAAElFTkSuQmCC';

/** A provider that draws `n` PNGs (revised prompts on DALL·E 3), records its calls, and fails with `fail` when given. */
function painter(id: string, options: { fail?: ProviderErrorKind; usage?: ImageUsage } = {}) {
  const calls: ImageGenerationRequest[] = [];
  const provider: Provider = {
    id,
    chat: () => Promise.reject(new Error('not used')),
    stream: () => Promise.reject(new Error('not used')),
    async generateImages(request) {
      calls.push(request);
      if (options.fail) throw new ProviderError({ provider: id, kind: options.fail, message: `${id} ${options.fail}`, upstreamStatus: options.fail === 'content_filter' ? 400 : 503 });
      const images = Array.from({ length: request.n }, () => (request.model === 'dall-e-3' ? { b64Json: png, revisedPrompt: `${request.prompt}, revised by ${id}` } : { b64Json: png }));
      return { created: 1_732_197_052, images, ...(options.usage ? { usage: options.usage } : {}) };
    },
  };
  return { provider, calls };
}

function setup(platform: Provider[], own?: Provider, enabled: readonly string[] = ['openai', 'azure']) {
  const usage: UsageEvent[] = [];
  const admitted: AdmitRequest[] = [];
  const settled: { actualTokens: number; actualCostUsd: number }[] = [];
  const released: number[] = [];
  const byId = new Map(platform.map((p) => [p.id, p]));
  const images = new ImageStore({ kv: createMemoryKv() });
  const reservation: Reservation = {
    headers: { 'x-ratelimit-limit-requests': '60' },
    charge: async () => {},
    settle: async (actual) => void settled.push(actual),
    release: async () => void released.push(1),
  };
  const deps: ImageStageDeps = {
    catalog: createCatalog().forProviders(new Set(enabled)),
    providers: { get: (id) => byId.get(id) },
    learn: { recordUsage: (event) => usage.push(event) },
    metrics: createMetrics({ defaultMetrics: false }),
    limiter: {
      admit: async (request) => {
        admitted.push(request);
        return reservation;
      },
    },
    images,
    ...(own ? { byok: { forOrg: () => ({ get: (id: string) => (id === own.id ? own : undefined) }) } } : {}),
  };
  const context: Exchange = { caller, requestId: 'req_img', startedAt: performance.now(), signal: new AbortController().signal, mode: 'full' };
  return { deps, usage, admitted, settled, released, images, context };
}

describe('generateImages', () => {
  it('defaults to DALL·E 3, prices the image by quality and size, answers base64 with the revised prompt and lands one ledger row', async () => {
    const openai = painter('openai');
    const { deps, usage, admitted, settled, context } = setup([openai.provider]);
    const out = await generateImages(deps, { prompt: 'a lighthouse', n: 1, size: '1792x1024', quality: 'hd', style: 'vivid', responseFormat: 'b64_json' }, context);
    expect(openai.calls).toEqual([{ model: 'dall-e-3', prompt: 'a lighthouse', n: 1, size: '1792x1024', quality: 'hd', style: 'vivid' }]);
    expect(out).toMatchObject({ model: 'openai/dall-e-3', costUsd: 0.12, costEstimated: false, created: 1_732_197_052 });
    expect(out.images).toEqual([{ b64Json: png, revisedPrompt: 'a lighthouse, revised by openai' }]);
    expect(admitted[0]).toMatchObject({ orgId: 'org_1', estimatedCostUsd: 0.12 });
    expect(settled).toEqual([{ actualTokens: 0, actualCostUsd: 0.12 }]);
    expect(usage).toEqual([expect.objectContaining({ requestId: 'req_img', model: 'openai/dall-e-3', provider: 'openai', costUsd: 0.12, promptTokens: 0, completionTokens: 0, status: 200 })]);
    expect(out.headers).toMatchObject({ 'x-svc-cost-usd': '0.12', 'x-svc-model': 'openai/dall-e-3', 'x-svc-org-id': 'org_1', 'x-svc-intelligence-mode': 'full', 'x-svc-cost-estimated': 'false', 'x-ratelimit-limit-requests': '60' });
    expect(out.metadata).toMatchObject({ request_id: 'req_img', requested_model: 'openai/dall-e-3', decision_source: 'Auto', cost_usd: 0.12, cost_attribution: 'svc' });
  });

  it.each([
    ['dall-e-3', 'standard', '1024x1024', 1, 0.04],
    ['dall-e-3', 'standard', '1024x1792', 1, 0.08],
    ['dall-e-3', 'hd', '1024x1024', 1, 0.08],
    ['dall-e-2', undefined, '256x256', 3, 0.048],
    ['dall-e-2', undefined, '512x512', 2, 0.036],
    ['dall-e-2', undefined, '1024x1024', 10, 0.2],
  ] as const)('prices %s %s %s x%i at %f', async (model, quality, size, n, cost) => {
    const { deps, usage, context } = setup([painter('openai').provider]);
    const out = await generateImages(deps, { model, prompt: 'p', n, size, ...(quality ? { quality } : {}), responseFormat: 'b64_json' }, context);
    expect(out.costUsd).toBeCloseTo(cost, 10);
    expect(out.images).toHaveLength(n);
    expect(usage[0]?.costUsd).toBeCloseTo(cost, 10);
  });

  it('stores each image for a URL when url is asked: file names whose bytes read back', async () => {
    const { deps, images, context } = setup([painter('openai').provider]);
    const out = await generateImages(deps, { model: 'dall-e-2', prompt: 'p', n: 2, size: '256x256', responseFormat: 'url' }, context);
    expect(out.images).toHaveLength(2);
    for (const image of out.images) {
      expect('file' in image && image.file).toMatch(/^[A-Za-z0-9_-]{32}\.png$/);
      const stored = 'file' in image ? await images.get(image.file) : undefined;
      expect(stored?.contentType).toBe('image/png');
      expect(Buffer.from(stored!.bytes).toString('base64')).toBe(png);
    }
  });

  it('bills gpt-image-1 by the tokens it reports, else by its per-image table, said estimated', async () => {
    const reported = setup([painter('openai', { usage: { inputTokens: 14, outputTokens: 272, textTokens: 14 } }).provider]);
    const out = await generateImages(reported.deps, { model: 'gpt-image-1', prompt: 'a fox', n: 1, size: '1024x1024', quality: 'low', responseFormat: 'b64_json' }, reported.context);
    // 14 input tokens at $5 and 272 output tokens at $40 per million.
    expect(out.costUsd).toBeCloseTo(0.01095, 10);
    expect(out).toMatchObject({ costEstimated: false, usage: { inputTokens: 14, outputTokens: 272 } });
    expect(reported.usage[0]).toMatchObject({ promptTokens: 14, completionTokens: 272 });
    expect(reported.settled[0]?.actualTokens).toBe(286);
    expect(out.headers['x-svc-output-tokens']).toBe('272');
    // The admission estimate is the table's price of the quality and size asked.
    expect(reported.admitted[0]?.estimatedCostUsd).toBe(0.011);

    const silent = setup([painter('openai').provider]);
    const auto = await generateImages(silent.deps, { model: 'gpt-image-1', prompt: 'a fox', n: 2, size: 'auto', quality: 'auto', responseFormat: 'b64_json' }, silent.context);
    // Quality and size auto: the dearest image, twice.
    expect(auto).toMatchObject({ costUsd: 0.5, costEstimated: true });
    expect(auto.headers['x-svc-cost-estimated']).toBe('true');
  });

  it('serves with the organisation\'s own key first, attributed byok and free against its budget; the platform key otherwise', async () => {
    const platform = painter('openai');
    const own = painter('openai');
    const byok = setup([platform.provider], own.provider);
    const out = await generateImages(byok.deps, { prompt: 'p', n: 1, size: '1024x1024', quality: 'standard', responseFormat: 'b64_json' }, byok.context);
    expect(own.calls).toHaveLength(1);
    expect(platform.calls).toHaveLength(0);
    expect(out.metadata.cost_attribution).toBe('byok');
    expect(byok.settled).toEqual([{ actualTokens: 0, actualCostUsd: 0 }]);
    expect(byok.usage[0]?.costUsd).toBe(0.04);

    const shared = setup([platform.provider]);
    expect((await generateImages(shared.deps, { prompt: 'p', n: 1, responseFormat: 'b64_json' }, shared.context)).metadata.cost_attribution).toBe('svc');
    expect(platform.calls).toHaveLength(1);
  });

  it('answers 500 provider_error when no key serves images, whatever model is named', async () => {
    for (const model of [undefined, 'dall-e-3', 'openai/dall-e-2']) {
      const { deps, context, usage } = setup([], undefined, ['mock']);
      await expect(generateImages(deps, { ...(model ? { model } : {}), prompt: 'p', n: 1, responseFormat: 'url' }, context)).rejects.toMatchObject({
        status: 500,
        type: 'provider_error',
        code: 'no_provider_configured',
      });
      expect(usage).toEqual([]);
    }
    // Image models in the catalog, but neither the platform nor the organisation has a provider serving them.
    const { deps, context } = setup([]);
    await expect(generateImages(deps, { prompt: 'p', n: 1, responseFormat: 'url' }, context)).rejects.toMatchObject({ status: 500, type: 'provider_error' });
  });

  it('answers 404 model_not_found for a model that is not an image model', async () => {
    const { deps, context } = setup([painter('openai').provider]);
    await expect(generateImages(deps, { model: 'gpt-4o', prompt: 'p', n: 1, responseFormat: 'url' }, context)).rejects.toMatchObject({ status: 404, param: 'model', code: 'model_not_found' });
  });

  it('falls back to the same model on another provider when one fails retryably, never on a refused prompt', async () => {
    const azure = painter('azure');
    const down = setup([painter('openai', { fail: 'overloaded' }).provider, azure.provider]);
    const out = await generateImages(down.deps, { model: 'dall-e-3', prompt: 'p', n: 1, size: '1024x1024', quality: 'standard', responseFormat: 'b64_json' }, down.context);
    expect(out.model).toBe('azure/dall-e-3');
    expect(azure.calls[0]?.model).toBe('dall-e-3');
    expect(down.usage.map((row) => row.model)).toEqual(['azure/dall-e-3']);

    const azureUnused = painter('azure');
    const refused = setup([painter('openai', { fail: 'content_filter' }).provider, azureUnused.provider]);
    await expect(generateImages(refused.deps, { prompt: 'p', n: 1, responseFormat: 'url' }, refused.context)).rejects.toMatchObject({ status: 400, code: 'content_filter' });
    expect(azureUnused.calls).toEqual([]);
    expect(refused.usage).toEqual([]);
    expect(refused.released).toEqual([1]);
  });

  it('calls no provider when the limits refuse the request', async () => {
    const openai = painter('openai');
    const { deps, context } = setup([openai.provider]);
    deps.limiter = {
      admit: async () => {
        throw billingError('Monthly budget exceeded.');
      },
    };
    await expect(generateImages(deps, { prompt: 'p', n: 1, responseFormat: 'url' }, context)).rejects.toMatchObject({ status: 402 });
    expect(openai.calls).toEqual([]);
  });
});
