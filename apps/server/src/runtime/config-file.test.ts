import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FLAG_KEYS } from '@svc/pipeline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configSchema, loadConfigFile, mockSchema, providerSchema } from './config-file.js';
import { modelEntrySchema } from '@svc/catalog';
import { ConfigError } from './env.js';

const example = fileURLToPath(new URL('../../../../docs/svc.config.example.yaml', import.meta.url));

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'svc-config-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function load(name: string, text: string) {
  const path = join(dir, name);
  await writeFile(path, text);
  return loadConfigFile(path);
}

async function refusal(name: string, text: string): Promise<string> {
  const error = await load(name, text).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ConfigError);
  return (error as ConfigError).message;
}

describe('SVC_CONFIG', () => {
  it('docs/svc.config.example.yaml loads and sets every key the file schema has', async () => {
    const config = await loadConfigFile(example);
    expect(Object.keys(config).sort()).toEqual(Object.keys(configSchema.entries).sort());
    const providerKeys = new Set(Object.values(config.providers).flatMap((entry) => Object.keys(entry)));
    expect([...providerKeys].sort()).toEqual(Object.keys(providerSchema.entries).sort());
    expect(Object.keys(config.mock ?? {}).sort()).toEqual(Object.keys(mockSchema.entries).sort());
    expect(Object.keys(config.flags ?? {}).sort()).toEqual([...FLAG_KEYS].sort());
    expect(config.providers.openai?.api_keys).toEqual(['sk-example-1', 'sk-example-2']);
    expect(config.providers.azure?.api_version).toBe('2024-10-21');
    const modelKeys = new Set((config.models ?? []).flatMap((entry) => Object.keys(entry)));
    expect([...modelKeys].sort()).toEqual(Object.keys(modelEntrySchema.entries).sort());
  });

  it('fails on a misspelt top-level key, naming it, instead of falling back to the mock provider', async () => {
    const message = await refusal('typo.yaml', 'provider:\n  openai:\n    api_keys: sk-1\n');
    expect(message).toMatch(/^SVC_CONFIG: .*unknown key 'provider' at the top level; the keys known here are providers, mock, models, flags$/);
  });

  it('fails on an unknown key inside a provider or mock block, naming its path', async () => {
    expect(await refusal('nested.json', JSON.stringify({ providers: { openai: { apikeys: ['sk-1'] } } }))).toContain(
      "unknown key 'providers.openai.apikeys'; the keys known in 'providers.openai' are api_keys, base_url",
    );
    expect(await refusal('mock.yaml', 'mock:\n  latency: 5\n')).toContain("unknown key 'mock.latency'; the keys known in 'mock' are enabled, latency_ms, tokens_per_second");
    expect(await refusal('flag.yaml', 'flags:\n  exact_cahce: false\n')).toContain('flags.exact_cahce');
  });

  it('refuses unknown keys and bad values in model_defaults, naming their path', async () => {
    expect(await refusal('defaults.yaml', 'providers:\n  myvllm:\n    model_defaults:\n      input_price: 1\n')).toContain(
      "unknown key 'providers.myvllm.model_defaults.input_price'; the keys known in 'providers.myvllm.model_defaults' are input_price_per_mtok",
    );
    expect(await refusal('negative.yaml', 'providers:\n  myvllm:\n    model_defaults:\n      output_price_per_mtok: -1\n')).toContain('at providers.myvllm.model_defaults.output_price_per_mtok: a price is not negative');
    expect(await refusal('capability.yaml', 'providers:\n  myvllm:\n    model_defaults:\n      capabilities: [telepathy]\n')).toContain('capabilities are tools, vision');
  });

  it('refuses unknown keys and bad values in models:, naming the entry', async () => {
    expect(await refusal('models.yaml', 'models:\n  - id: myvllm/x\n    price: 1\n')).toContain("unknown key 'models.0.price'; the keys known in 'models.0' are id, upstream_id, kind");
    expect(await refusal('model-id.yaml', 'models:\n  - id: no-provider\n')).toContain('at models.0.id: a model id is <provider>/<model>');
    expect(await refusal('model-kind.yaml', 'models:\n  - id: a/b\n    kind: video\n')).toContain('at models.0.kind: kind is one of chat, embedding');
  });

  it('still reports bad values with their path', async () => {
    expect(await refusal('value.yaml', 'providers:\n  openai:\n    base_url: not a url\n')).toContain('at providers.openai.base_url: base_url must be a URL');
  });
});
