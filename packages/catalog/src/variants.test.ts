import { describe, expect, it } from 'vitest';
import { createCatalog } from './catalog.js';

const catalog = createCatalog();

describe('fine-tunes and dated snapshots', () => {
  it("resolves an OpenAI fine-tune to its base's capabilities and limits at OpenAI's fine-tuned prices", () => {
    const base = catalog.get('openai/gpt-4o-mini')!;
    for (const name of ['ft:gpt-4o-mini-2024-07-18:acme::9x8s7d6f', 'openai/ft:gpt-4o-mini-2024-07-18:acme::9x8s7d6f']) {
      const tuned = catalog.resolve(name)!;
      expect(tuned).toMatchObject({
        id: 'openai/ft:gpt-4o-mini-2024-07-18:acme::9x8s7d6f',
        provider: 'openai',
        upstreamId: 'ft:gpt-4o-mini-2024-07-18:acme::9x8s7d6f',
        kind: 'chat',
        contextWindow: base.contextWindow,
        maxOutputTokens: base.maxOutputTokens,
        capabilities: base.capabilities,
        tier: base.tier,
        inputPricePerMTok: 0.3,
        cachedInputPricePerMTok: 0.15,
        outputPricePerMTok: 1.2,
        routable: false,
      });
      // Its weights live only at OpenAI: no family fallback to another host.
      expect(tuned.family).toBe(tuned.id);
      expect(tuned.unpriced).toBeUndefined();
    }
    expect(catalog.resolve('ft:gpt-4.1:acme:support-bot:abc123')).toMatchObject({ inputPricePerMTok: 3, outputPricePerMTok: 12, contextWindow: 1_047_576 });
  });

  it('serves a fine-tune of a base without a published fine-tuning price unpriced, and refuses unknown bases', () => {
    expect(catalog.resolve('ft:gpt-5.4-mini:acme::abc')).toMatchObject({ unpriced: true, inputPricePerMTok: 0, outputPricePerMTok: 0 });
    expect(catalog.resolve('ft:no-such-base:acme::abc')).toBeUndefined();
    expect(catalog.resolve('ft:claude-haiku-4-5:acme::abc')).toBeUndefined();
  });

  it("resolves dated snapshots to their family's entry under the name asked for", () => {
    for (const [name, family, provider] of [
      ['claude-sonnet-4-5-20250929', 'claude-sonnet-4.5', 'anthropic'],
      ['claude-haiku-4-5-20251001', 'claude-haiku-4.5', 'anthropic'],
      ['gpt-4o-2024-08-06', 'gpt-4o', 'openai'],
      ['openai/gpt-4o-2024-08-06', 'gpt-4o', 'openai'],
      ['azure/gpt-4o-2024-08-06', 'gpt-4o', 'azure'],
    ] as const) {
      const model = catalog.resolve(name)!;
      const upstream = name.slice(name.indexOf('/') + 1);
      expect(model, name).toMatchObject({ family, provider, upstreamId: upstream, id: `${provider}/${upstream}` });
      expect(model.inputPricePerMTok).toBe(catalog.family(family).find((m) => m.provider === provider)!.inputPricePerMTok);
    }
    expect(catalog.resolve('gpt-4o-2024-08-06')).toBe(catalog.resolve('gpt-4o-2024-08-06'));
    expect(catalog.resolve('nothing-20250101')).toBeUndefined();
    expect(catalog.resolve('mock/mock-value-20250101')).toBeUndefined();
  });

  it('lists the older OpenAI models, served only when named', () => {
    for (const id of ['openai/gpt-3.5-turbo', 'openai/gpt-4-turbo', 'openai/o1', 'openai/o3-mini']) expect(catalog.get(id)?.routable, id).toBe(false);
    expect(catalog.resolve('gpt-3.5-turbo')).toMatchObject({ inputPricePerMTok: 0.5, outputPricePerMTok: 1.5 });
  });

  it('keeps catalog lookups free of new entries: a listed name is its own object', () => {
    expect(catalog.resolve('gpt-4o')).toBe(catalog.get('openai/gpt-4o'));
    expect(catalog.resolve('claude-sonnet-4-5')).toBe(catalog.get('anthropic/claude-sonnet-4-5'));
  });
});
