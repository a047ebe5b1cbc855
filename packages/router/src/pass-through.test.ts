import { GatewayError } from '@svc/core';
import { describe, expect, it } from 'vitest';
import { createRouter } from './router.js';
import { ask, fixtureCatalog } from './test/fixture-catalog.js';

const catalog = fixtureCatalog();

describe('explicit models the catalog does not list', () => {
  const router = createRouter({ catalog, passThrough: { providers: new Set(['acme', 'vllm']), defaults: { vllm: { inputPricePerMTok: 0.1, outputPricePerMTok: 0.3, contextWindow: 32_000 } } } });

  it('forwards <provider>/<model> of a configured provider exactly as named, unpriced without defaults', () => {
    const d = router.route(ask('hi', { model: 'acme/brand-new-model-2031' }));
    expect(d.model).toMatchObject({ id: 'acme/brand-new-model-2031', provider: 'acme', upstreamId: 'brand-new-model-2031', source: 'passthrough', unpriced: true, routable: false });
    expect(d.waterfall).toEqual([d.model]);
    expect(d.source).toBe('Pinned');
  });

  it('prices them from the provider defaults when configured, and keeps slashes of the upstream id', () => {
    const d = router.route(ask('hi', { model: 'vllm/Qwen/Qwen3-32B' }));
    expect(d.model).toMatchObject({ upstreamId: 'Qwen/Qwen3-32B', inputPricePerMTok: 0.1, outputPricePerMTok: 0.3, contextWindow: 32_000 });
    expect(d.model.unpriced).toBeUndefined();
  });

  it('builds one entry per name (a repeated name allocates no new model)', () => {
    const a = router.route(ask('hi', { model: 'acme/x1' })).model;
    expect(router.route(ask('hi', { model: 'acme/x1' })).model).toBe(a);
  });

  it('refuses unknown providers, bare names, and organisations that turned pass-through off', () => {
    for (const model of ['nobody/model', 'no-such-model', 'acme/']) {
      expect(() => router.route(ask('hi', { model }))).toThrow(GatewayError);
    }
    try {
      router.route(ask('hi', { model: 'acme/x2' }), { orgPolicy: { passThrough: false } });
      throw new Error('expected a refusal');
    } catch (error) {
      expect(error).toMatchObject({ status: 404, code: 'model_not_found', param: 'model' });
      expect((error as Error).message).toContain('pass_through_models');
    }
  });

  it('never routes an alias to a passed-through model, and answers 404 without the option', () => {
    router.route(ask('hi', { model: 'acme/x3' }));
    for (let i = 0; i < 5; i++) expect(router.route(ask('hi', { model: 'svc/auto' })).waterfall.some((m) => m.source === 'passthrough')).toBe(false);
    expect(() => createRouter({ catalog }).route(ask('hi', { model: 'acme/x3' }))).toThrow(/does not exist/);
  });
});

describe("explicit models of a provider only the organisation's own key configures (BYOK)", () => {
  const unconfigured = fixtureCatalog();
  const listed = { ...unconfigured.get('fast/tiny')!, id: 'byok/listed', provider: 'byok', upstreamId: 'listed', family: 'listed' };
  const router = createRouter({ catalog, passThrough: { providers: new Set(['acme']), unconfigured: { get: (id) => (id === listed.id ? listed : undefined) } } });
  const own = new Set(['byok']);

  it('pass through for that organisation only, at the built-in catalog entry when it lists the name, and never show in the shared list', () => {
    expect(() => router.route(ask('hi', { model: 'byok/new-model' }))).toThrow(/does not exist/);
    const d = router.route(ask('hi', { model: 'byok/new-model' }), { ownProviders: own });
    expect(d.model).toMatchObject({ id: 'byok/new-model', upstreamId: 'new-model', source: 'passthrough', unpriced: true });
    expect(router.route(ask('hi', { model: 'byok/listed' }), { ownProviders: own }).model).toBe(listed);
    // Remembered for the organisation with the key, still refused to one without.
    expect(() => router.route(ask('hi', { model: 'byok/new-model' }))).toThrow(/does not exist/);
    expect(router.passedThrough().map((m) => m.id)).not.toContain('byok/new-model');
  });
});
