import type { ProviderRegistryConfig } from '@svc/providers';
import { describe, expect, it } from 'vitest';
import { byokProviderIds, orgProviderConfig } from './org-provider-config.js';

const fetch: typeof globalThis.fetch = async () => new Response('{}');
const platform: ProviderRegistryConfig = {
  fetch,
  openai: { apiKeys: ['sk-platform'], baseUrl: 'http://upstream.test/v1' },
  deepgram: { apiKeys: ['dg-platform'], baseUrl: 'http://deepgram.test' },
  azure: { apiKeys: ['az-platform'], baseUrl: 'https://res.openai.azure.com', apiVersion: '2024-10-21', deployments: { 'gpt-4o': 'prod-4o' } },
  compatible: [{ id: 'groq', apiKeys: ['g-platform'], baseUrl: 'http://groq.test/v1', compatibility: { embeddings: false } }, { id: 'vllm', apiKeys: ['v'], baseUrl: 'http://vllm.test/v1' }],
  keyCooldowns: { order: async () => [0], failure: async () => undefined, success: async () => {} },
  mock: { enabled: true },
};

describe('orgProviderConfig', () => {
  it("configures each provider like the platform's, with the organisation's key as the only key", () => {
    const config = orgProviderConfig(
      platform,
      new Map([
        ['openai', 'sk-org'],
        ['azure', 'az-org'],
        ['groq', 'g-org'],
        ['anthropic', 'ak-org'],
        ['mistral', 'm-org'],
        ['deepgram', 'dg-org'],
        ['elevenlabs', 'xi-org'],
      ]),
    );
    expect(config.deepgram).toEqual({ apiKeys: ['dg-org'], baseUrl: 'http://deepgram.test' });
    expect(config.elevenlabs).toEqual({ apiKeys: ['xi-org'] });
    expect(config.openai).toEqual({ apiKeys: ['sk-org'], baseUrl: 'http://upstream.test/v1' });
    expect(config.azure).toEqual({ apiKeys: ['az-org'], baseUrl: 'https://res.openai.azure.com', apiVersion: '2024-10-21', deployments: { 'gpt-4o': 'prod-4o' } });
    expect(config.anthropic).toEqual({ apiKeys: ['ak-org'] });
    expect(config.compatible).toEqual([
      { id: 'groq', apiKeys: ['g-org'], baseUrl: 'http://groq.test/v1', compatibility: { embeddings: false } },
      { id: 'mistral', apiKeys: ['m-org'], baseUrl: 'https://api.mistral.ai/v1' },
    ]);
    expect(config.fetch).toBe(fetch);
    expect(config.keyCooldowns).toBeUndefined();
    expect(config.mock).toBeUndefined();
  });

  it('leaves out providers that need platform settings the platform does not have', () => {
    const config = orgProviderConfig({ compatible: [] }, new Map([['azure', 'az'], ['bedrock', 'br'], ['openai', 'sk']]));
    expect(config.azure).toBeUndefined();
    expect(config.bedrock).toBeUndefined();
    expect(config.openai).toEqual({ apiKeys: ['sk'] });
  });
});

describe('byokProviderIds', () => {
  it('lists keyed first-party providers, keyed compatible vendors and the platform’s own compatible ids', () => {
    const ids = byokProviderIds(platform);
    for (const id of ['openai', 'anthropic', 'gemini', 'cohere', 'deepgram', 'elevenlabs', 'azure', 'bedrock', 'groq', 'mistral', 'openrouter', 'vllm']) expect(ids.has(id), id).toBe(true);
    for (const id of ['vertex', 'mock', 'ollama', 'nope', 'constructor']) expect(ids.has(id), id).toBe(false);
  });
});
