import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadConfigFile } from './config-file.js';
import { configuredCatalog } from './config-models.js';
import { ConfigError } from './env.js';

const example = fileURLToPath(new URL('../../../../docs/svc.config.example.yaml', import.meta.url));
const enabled = new Set(['openai', 'anthropic', 'myvllm']);

describe('SVC_CONFIG models:', () => {
  it('builds the catalog of the example file: models added, catalog entries changed field by field', async () => {
    const catalog = configuredCatalog(enabled, await loadConfigFile(example));
    expect(catalog.get('myvllm/llama-70b')).toMatchObject({
      provider: 'myvllm',
      upstreamId: 'meta-llama/Llama-3.3-70B-Instruct',
      kind: 'chat',
      family: 'llama-3.3-70b',
      inputPricePerMTok: 0.2,
      cachedInputPricePerMTok: 0.1,
      contextWindow: 131_072,
      capabilities: ['tools', 'json'],
      tier: 'T2',
      qualityPrior: 0.8,
      openWeight: true,
      source: 'config',
    });
    expect(catalog.get('myvllm/llama-70b')!.unpriced).toBeUndefined();
    expect(catalog.get('myvllm/bge-m3')).toMatchObject({ kind: 'embedding', dimensions: 1024, upstreamId: 'bge-m3' });
    expect(catalog.get('openai/gpt-4o-mini')).toMatchObject({ inputPricePerMTok: 0.12, outputPricePerMTok: 0.5, contextWindow: 128_000 });
    expect(catalog.get('openai/gpt-4o-mini')!.source).toBeUndefined();
    // Its fine-tunes and snapshots keep their own prices; another catalog entry is untouched.
    expect(catalog.get('openai/gpt-4o')!.inputPricePerMTok).toBe(2.5);
    // Only configured providers' models are served.
    expect(catalog.get('gemini/gemini-2.5-flash')).toBeUndefined();
  });

  it('defaults a new model from its provider model_defaults, unpriced without prices', () => {
    const catalog = configuredCatalog(enabled, {
      providers: { myvllm: { model_defaults: { context_window: 8192 } } },
      models: [{ id: 'myvllm/tiny' }],
    });
    expect(catalog.get('myvllm/tiny')).toMatchObject({ contextWindow: 8192, unpriced: true, routable: false, source: 'config' });
  });

  it('prices a fine-tune at a rate of your own, the configured entry winning over the derived one', () => {
    const ft = 'ft:gpt-4o-mini-2024-07-18:acme::abc123';
    const catalog = configuredCatalog(enabled, { models: [{ id: `openai/${ft}`, input_price_per_mtok: 0.25, output_price_per_mtok: 1 }] });
    expect(catalog.resolve(ft)).toMatchObject({ upstreamId: ft, inputPricePerMTok: 0.25, outputPricePerMTok: 1, source: 'config' });
  });

  it('stops the start on a model of an unconfigured provider or a catalog-invalid entry, naming it', () => {
    expect(() => configuredCatalog(enabled, { models: [{ id: 'nowhere/model', input_price_per_mtok: 1, output_price_per_mtok: 1 }] })).toThrow(
      new ConfigError('SVC_CONFIG', "models: 'nowhere/model' names provider 'nowhere', which is not configured (add it under providers: with its api_keys and base_url)"),
    );
    expect(() => configuredCatalog(enabled, { models: [{ id: 'myvllm/vectors', kind: 'embedding' }] })).toThrow(/SVC_CONFIG: models: .*myvllm\/vectors.*dimensions/);
  });
});
