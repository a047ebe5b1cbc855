import { createCatalog } from '@svc/catalog';
import type { ChatRequest } from '@svc/core';
import { createRouter } from '@svc/router';
import { describe, expect, it } from 'vitest';
import { largerContextModels, requiredCapabilities } from './route.js';

const catalog = createCatalog().forProviders(new Set(['openai', 'anthropic', 'groq', 'together', 'fireworks']));
const router = createRouter({ catalog });
const chat = (patch: Partial<ChatRequest>): ChatRequest => ({ model: 'svc/auto', messages: [{ role: 'user', content: 'hi' }], stream: false, n: 1, includeUsage: false, ...patch });

describe('@svc/router over the real catalog', () => {
  it('honours an explicit provider/model exactly, with its family on other providers as fallback', () => {
    const llama = catalog.list({ kind: 'chat' }).find((m) => catalog.family(m.family).filter((f) => catalog.get(f.id)).length > 1)!;
    const decision = router.route(chat({ model: llama.id }));
    expect(decision.model.id).toBe(llama.id);
    expect(decision.source).toBe('Pinned');
    expect(decision.waterfall[0]!.id).toBe(llama.id);
    expect(decision.waterfall.length).toBeGreaterThan(1);
    expect(new Set(decision.waterfall.map((m) => m.family))).toEqual(new Set([llama.family]));
  });

  it('resolves a bare upstream name from the catalog', () => {
    expect(router.route(chat({ model: 'gpt-4o-mini' })).model.id).toBe('openai/gpt-4o-mini');
  });

  it('rejects unknown models and models of unconfigured providers with a 404 model_not_found on model', () => {
    expect(() => router.route(chat({ model: 'nope/model' }))).toThrow(expect.objectContaining({ status: 404, param: 'model', code: 'model_not_found' }));
    const gemini = createCatalog().list({ provider: 'gemini', kind: 'chat' })[0]!;
    expect(() => router.route(chat({ model: gemini.id }))).toThrow(expect.objectContaining({ status: 404, code: 'model_not_found' }));
  });

  it('draws each tier alias from its pool', () => {
    for (const [alias, tier] of [['svc/auto-quality', 'T1'], ['svc/auto-value', 'T2'], ['svc/auto-speed', 'T3']] as const) {
      const decision = router.route(chat({ model: alias, messages: [{ role: 'user', content: 'Explain how a B-tree index speeds up range queries.' }] }));
      expect(decision.waterfall.every((m) => m.tier === tier)).toBe(true);
      expect(decision.source).toBe('Router');
      expect(decision.candidates[0]!.id).toBe(decision.model.id);
    }
  });

  it('filters candidates by the capabilities the request needs', () => {
    const tools = [{ name: 'lookup', parameters: { type: 'object' } }];
    const decision = router.route(chat({ model: 'svc/auto', tools, messages: [{ role: 'user', content: [{ type: 'image', url: 'https://x/y.png' }] }] }));
    expect(decision.waterfall.length).toBeGreaterThan(0);
    for (const model of decision.waterfall) expect(model.capabilities).toEqual(expect.arrayContaining(['tools', 'vision']));
  });

  it('applies force_model and force_tier overrides', () => {
    expect(router.route(chat({ routingOverride: { forceModel: 'openai/gpt-4o-mini' } })).model.id).toBe('openai/gpt-4o-mini');
    expect(router.route(chat({ routingOverride: { forceTier: 'T3' } })).tier).toBe('T3');
    expect(router.route(chat({ model: 'openai/gpt-4o-mini', routingOverride: { forceLane: 'smart' } })).lane).toBe('smart');
  });

  it('fails clearly when no provider is configured at all', () => {
    expect(() => createRouter({ catalog: createCatalog().forProviders(new Set()) }).route(chat({}))).toThrow(expect.objectContaining({ status: 500, type: 'provider_error' }));
  });
});

describe('call-stage helpers', () => {
  it('lists required capabilities', () => {
    expect(requiredCapabilities(chat({ responseFormat: { type: 'json_object' } }))).toEqual(['json']);
    expect(requiredCapabilities(chat({ tools: [{ name: 't' }], toolChoice: 'none' }))).toEqual([]);
  });

  it('offers larger context windows, the same family first', () => {
    const small = catalog.list({ kind: 'chat' }).reduce((a, b) => (a.contextWindow <= b.contextWindow ? a : b));
    const larger = largerContextModels(catalog, small, []);
    expect(larger.length).toBeGreaterThan(0);
    for (const model of larger) expect(model.contextWindow).toBeGreaterThan(small.contextWindow);
  });
});
