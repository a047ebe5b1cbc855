import { createCatalog } from '@svc/catalog';
import type { ChatRequest } from '@svc/core';
import { describe, expect, it } from 'vitest';
import { requiredCapabilities, route } from './route.js';

const catalog = createCatalog().forProviders(new Set(['openai', 'anthropic', 'groq', 'together', 'fireworks']));
const chat = (patch: Partial<ChatRequest>): ChatRequest => ({ model: 'svc/auto', messages: [{ role: 'user', content: 'hi' }], stream: false, n: 1, includeUsage: false, ...patch });

describe('route (first policy)', () => {
  it('honours an explicit provider/model exactly, with its family on other providers as fallback', () => {
    const llama = catalog.list({ kind: 'chat' }).find((m) => catalog.family(m.family).filter((f) => catalog.get(f.id)).length > 1)!;
    const decision = route(chat({ model: llama.id }), catalog);
    expect(decision.model.id).toBe(llama.id);
    expect(decision.source).toBe('Pinned');
    expect(decision.waterfall[0]!.id).toBe(llama.id);
    expect(decision.waterfall.length).toBeGreaterThan(1);
    expect(new Set(decision.waterfall.map((m) => m.family))).toEqual(new Set([llama.family]));
  });

  it('resolves a bare upstream name from the catalog', () => {
    expect(route(chat({ model: 'gpt-4o-mini' }), catalog).model.id).toBe('openai/gpt-4o-mini');
  });

  it('rejects unknown models and models of unconfigured providers with a 400 on model', () => {
    expect(() => route(chat({ model: 'nope/model' }), catalog)).toThrow(expect.objectContaining({ status: 400, param: 'model', code: 'model_not_found' }));
    const gemini = createCatalog().list({ provider: 'gemini', kind: 'chat' })[0]!;
    expect(() => route(chat({ model: gemini.id }), catalog)).toThrow(expect.objectContaining({ status: 400 }));
  });

  it('takes alias tier pools ordered by quality prior', () => {
    for (const [alias, tier] of [['svc/auto-quality', 'T1'], ['svc/auto-value', 'T2'], ['svc/auto-speed', 'T3']] as const) {
      const decision = route(chat({ model: alias }), catalog);
      expect(decision.waterfall.every((m) => m.tier === tier)).toBe(true);
      const priors = decision.waterfall.map((m) => m.qualityPrior);
      expect(priors).toEqual([...priors].sort((a, b) => b - a));
      expect(decision.lane).toBe('smart');
    }
  });

  it('filters candidates by the capabilities the request needs', () => {
    const tools = [{ name: 'lookup', parameters: { type: 'object' } }];
    const decision = route(chat({ model: 'svc/auto', tools, messages: [{ role: 'user', content: [{ type: 'image', url: 'https://x/y.png' }] }] }), catalog);
    expect(decision.waterfall.length).toBeGreaterThan(0);
    for (const model of decision.waterfall) expect(model.capabilities).toEqual(expect.arrayContaining(['tools', 'vision']));
  });

  it('applies force_model and force_tier overrides', () => {
    expect(route(chat({ routingOverride: { forceModel: 'openai/gpt-4o-mini' } }), catalog).model.id).toBe('openai/gpt-4o-mini');
    expect(route(chat({ routingOverride: { forceTier: 'T3' } }), catalog).tier).toBe('T3');
    expect(route(chat({ model: 'openai/gpt-4o-mini', routingOverride: { forceLane: 'smart' } }), catalog).lane).toBe('smart');
  });

  it('fails clearly when no provider is configured at all', () => {
    expect(() => route(chat({}), createCatalog().forProviders(new Set()))).toThrow(expect.objectContaining({ status: 500, type: 'provider_error' }));
  });

  it('lists required capabilities', () => {
    expect(requiredCapabilities(chat({ responseFormat: { type: 'json_object' } }))).toEqual(['json']);
    expect(requiredCapabilities(chat({ tools: [{ name: 't' }], toolChoice: 'none' }))).toEqual([]);
  });

  it('reuses plans: no catalog scan on the request path after the first request of a kind', () => {
    const first = route(chat({ model: 'svc/auto-value' }), catalog);
    const again = route(chat({ model: 'svc/auto-value', routingOverride: { forceLane: 'turbo' } }), catalog);
    expect(again.waterfall).toBe(first.waterfall);
    expect(again.lane).toBe('turbo');
    const withTools = route(chat({ model: 'svc/auto-value', tools: [{ name: 't' }] }), catalog);
    expect(withTools.waterfall).not.toBe(first.waterfall);
  });
});
