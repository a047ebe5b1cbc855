import { describe, expect, it } from 'vitest';
import { createCatalog } from './catalog.js';
import type { ModelInfo } from './model.js';

const base: ModelInfo = {
  id: 'acme/a-1',
  provider: 'acme',
  upstreamId: 'a-1',
  family: 'a',
  kind: 'chat',
  tier: 'T2',
  contextWindow: 1000,
  maxOutputTokens: 100,
  inputPricePerMTok: 1,
  outputPricePerMTok: 2,
  capabilities: ['tools'],
  free: false,
  openWeight: false,
  created: 1_700_000_000,
  qualityPrior: 0.5,
};

function model(provider: string, upstreamId: string, extra: Partial<ModelInfo> = {}): ModelInfo {
  return { ...base, id: `${provider}/${upstreamId}`, provider, upstreamId, ...extra };
}

describe('createCatalog validation', () => {
  it('rejects duplicate ids, naming the model', () => {
    expect(() => createCatalog([model('acme', 'a-1'), model('acme', 'a-1')])).toThrow(/"acme\/a-1".*duplicate id/);
  });

  it('rejects an id that does not start with its provider', () => {
    expect(() => createCatalog([{ ...model('acme', 'a-1'), provider: 'other' }])).toThrow(
      /"acme\/a-1".*provider "other"/,
    );
    expect(() => createCatalog([{ ...model('acme', 'a-1'), id: 'acme/' }])).toThrow(/"acme\/"/);
  });

  it('rejects non-positive context windows', () => {
    expect(() => createCatalog([model('acme', 'a-1', { contextWindow: 0 })])).toThrow(/"acme\/a-1".*contextWindow/);
    expect(() => createCatalog([model('acme', 'a-1', { contextWindow: Number.NaN })])).toThrow(/contextWindow/);
  });

  it('rejects negative or non-numeric prices, including cache prices', () => {
    expect(() => createCatalog([model('acme', 'a-1', { inputPricePerMTok: -1 })])).toThrow(/inputPricePerMTok/);
    expect(() => createCatalog([model('acme', 'a-1', { cachedInputPricePerMTok: -0.1 })])).toThrow(
      /cachedInputPricePerMTok/,
    );
    const fromJson = JSON.parse('{"outputPricePerMTok":"2"}') as Partial<ModelInfo>;
    expect(() => createCatalog([model('acme', 'a-1', fromJson)])).toThrow(/outputPricePerMTok/);
  });

  it('requires dimensions on embedding models and a 0..1 quality prior', () => {
    expect(() => createCatalog([model('acme', 'e', { kind: 'embedding', maxOutputTokens: 0 })])).toThrow(/dimensions/);
    expect(() => createCatalog([model('acme', 'a-1', { qualityPrior: 1.5 })])).toThrow(/qualityPrior/);
  });

  it('checks unit prices and the voice spec of speech and transcription models', () => {
    const tts = { kind: 'speech', maxOutputTokens: 0, unitPrices: { perMChars: 15 } } as const;
    const spec = { languages: ['en'], outputFormats: ['mp3_22050'], voices: ['thalia-en'], maxChars: 2000 } as const;
    expect(() => createCatalog([model('acme', 's', { ...tts, voice: spec })])).not.toThrow();
    expect(() => createCatalog([model('acme', 's', { ...tts, unitPrices: { perHour: -1 } })])).toThrow(/unitPrices.perHour/);
    expect(() => createCatalog([model('acme', 's', { ...tts, voice: { ...spec, outputFormats: ['mp3'] } })])).toThrow(/outputFormats/);
    expect(() => createCatalog([model('acme', 's', { ...tts, voice: { ...spec, languages: ['english'] } })])).toThrow(/languages/);
    expect(() => createCatalog([model('acme', 's', { ...tts, voice: { languages: 'multilingual', outputFormats: ['mp3_22050'], maxChars: 10 } })])).toThrow(/voices/);
    expect(() => createCatalog([model('acme', 's', { ...tts, voice: { ...spec, voices: undefined, defaultVoice: 'x', voicePattern: '^[0-9]+$' } })])).toThrow(/defaultVoice/);
    expect(() => createCatalog([model('acme', 's', { ...tts, voice: { ...spec, maxChars: 0 } })])).toThrow(/maxChars/);
    expect(() => createCatalog([model('acme', 'c', { voice: { languages: 'multilingual' } })])).toThrow(/only speech and transcription/);
    expect(() => createCatalog([model('acme', 'c', { audioInputPricePerMTok: -1 })])).toThrow(/audioInputPricePerMTok/);
  });

  it('accepts an empty catalog', () => {
    expect(createCatalog([]).size).toBe(0);
  });
});

describe('resolve', () => {
  const catalog = createCatalog([
    model('groq', 'openai/oss-1', { family: 'oss-1' }),
    model('together', 'openai/oss-1', { family: 'oss-1' }),
    model('together', 'shared-1'),
    model('openai', 'shared-1'),
    model('acme', 'Mixed-Case'),
  ]);

  it('finds an exact slug before anything else', () => {
    expect(catalog.resolve('together/shared-1')?.id).toBe('together/shared-1');
  });

  it('prefers the first-party provider for a bare upstream name, whatever the order', () => {
    expect(catalog.resolve('shared-1')?.id).toBe('openai/shared-1');
  });

  it('among third-party hosts, prefers the one listed first', () => {
    expect(catalog.resolve('openai/oss-1')?.id).toBe('groq/openai/oss-1');
  });

  it('falls back to a case-insensitive match', () => {
    expect(catalog.resolve('mixed-case')?.id).toBe('acme/Mixed-Case');
    expect(catalog.resolve('ACME/MIXED-CASE')?.id).toBe('acme/Mixed-Case');
  });

  it('returns undefined for unknown names', () => {
    expect(catalog.resolve('nope')).toBeUndefined();
    expect(catalog.get('shared-1')).toBeUndefined();
  });
});

describe('queries', () => {
  const catalog = createCatalog([
    model('groq', 'l-70', { family: 'llama-70', tier: 'T3' }),
    model('together', 'L-70-Turbo', { family: 'llama-70', tier: 'T2' }),
    model('acme', 'emb', { kind: 'embedding', family: 'emb', maxOutputTokens: 0, dimensions: 8 }),
  ]);

  it('lists with filters in catalog order', () => {
    expect(catalog.list().map((m) => m.id)).toEqual(['groq/l-70', 'together/L-70-Turbo', 'acme/emb']);
    expect(catalog.list({ kind: 'embedding' }).map((m) => m.id)).toEqual(['acme/emb']);
    expect(catalog.list({ provider: 'together', tier: 'T2' }).map((m) => m.id)).toEqual(['together/L-70-Turbo']);
    expect(catalog.list({ provider: 'together', tier: 'T3' })).toEqual([]);
  });

  it('groups a family across providers and knows its providers', () => {
    expect(catalog.family('llama-70').map((m) => m.provider)).toEqual(['groq', 'together']);
    expect(catalog.family('unknown')).toEqual([]);
    expect([...catalog.providers()].sort()).toEqual(['acme', 'groq', 'together']);
  });

  it('hands out immutable models', () => {
    const found = catalog.get('groq/l-70')!;
    expect(() => {
      (found as { inputPricePerMTok: number }).inputPricePerMTok = 0;
    }).toThrow(TypeError);
    expect(catalog.get('groq/l-70')?.inputPricePerMTok).toBe(1);
  });
});

describe('forProviders', () => {
  const catalog = createCatalog([
    model('openai', 'shared-1'),
    model('groq', 'shared-1'),
    model('groq', 'fast-1', { family: 'fast' }),
  ]);

  it('keeps only enabled providers, and resolves within the view', () => {
    const view = catalog.forProviders(new Set(['groq']));
    expect(view.list().map((m) => m.id)).toEqual(['groq/shared-1', 'groq/fast-1']);
    expect([...view.providers()]).toEqual(['groq']);
    expect(view.get('openai/shared-1')).toBeUndefined();
    expect(view.resolve('shared-1')?.id).toBe('groq/shared-1');
    expect(catalog.resolve('shared-1')?.id).toBe('openai/shared-1');
  });

  it('is empty when nothing is enabled', () => {
    expect(catalog.forProviders(new Set()).size).toBe(0);
  });
});

describe('withOverrides', () => {
  const catalog = createCatalog([model('acme', 'a-1'), model('acme', 'a-2', { family: 'b' })]);

  it('changes the given fields of a known model and leaves the original catalog alone', () => {
    const next = catalog.withOverrides([{ id: 'acme/a-1', inputPricePerMTok: 0.5, tier: 'T1' }]);
    expect(next.get('acme/a-1')).toMatchObject({ inputPricePerMTok: 0.5, tier: 'T1', outputPricePerMTok: 2 });
    expect(catalog.get('acme/a-1')?.inputPricePerMTok).toBe(1);
    expect(next.size).toBe(2);
  });

  it('applies overrides in order, later ones winning', () => {
    const next = catalog.withOverrides([
      { id: 'acme/a-1', inputPricePerMTok: 0.5 },
      { id: 'acme/a-1', inputPricePerMTok: 0.25 },
    ]);
    expect(next.get('acme/a-1')?.inputPricePerMTok).toBe(0.25);
  });

  it('adds a model given in full, findable by slug and upstream name', () => {
    const added = model('custom', 'my-llm', { family: 'b' });
    const next = catalog.withOverrides([added]);
    expect(next.get('custom/my-llm')).toEqual(added);
    expect(next.resolve('my-llm')?.id).toBe('custom/my-llm');
    expect(next.family('b').map((m) => m.id)).toEqual(['acme/a-2', 'custom/my-llm']);
  });

  it('rejects a new model that is missing fields, naming them', () => {
    expect(() => catalog.withOverrides([{ id: 'custom/x', provider: 'custom', upstreamId: 'x' }])).toThrow(
      /"custom\/x".*family.*contextWindow/,
    );
  });

  it('validates the result', () => {
    expect(() => catalog.withOverrides([{ id: 'acme/a-1', outputPricePerMTok: -3 }])).toThrow(
      /"acme\/a-1".*outputPricePerMTok/,
    );
  });
});
