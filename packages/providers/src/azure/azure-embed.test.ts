import { describe, expect, it } from 'vitest';
import type { EmbeddingRequest, Provider } from '../provider.js';
import { fixtureFiles } from '../test/fixture-files.js';
import { rejection } from '../test/outcomes.js';
import { useFixtureProvider } from '../test/use-fixture-server.js';
import { type AzureSettings, createAzureOpenAIProvider } from './azure-provider.js';

const { json } = fixtureFiles(new URL('./__fixtures__/', import.meta.url));

const serve = useFixtureProvider((url, settings: Partial<AzureSettings> = {}) =>
  createAzureOpenAIProvider({ apiKeys: ['az-key-1', 'az-key-2'], baseUrl: `${url}/`, deployments: { 'text-embedding-3-small': 'prod-embed' }, ...settings }),
);

const request: EmbeddingRequest = { model: 'text-embedding-3-small', input: ['first text', 'second text'], dimensions: 4 };

const embed = (provider: Provider) => {
  if (!provider.embed) throw new Error('provider has no embed');
  return provider.embed.bind(provider);
};

describe('azure embed', () => {
  it('posts base64 to the deployment URL with an api-key header and decodes the vectors', async () => {
    const { server, provider } = await serve({ json: json('embeddings') });
    const result = await embed(provider)({ ...request, user: 'u-1' });

    const sent = server.requests[0]!;
    expect(sent.path).toBe('/openai/deployments/prod-embed/embeddings?api-version=2024-10-21');
    expect(sent.headers['api-key']).toBe('az-key-1');
    expect(sent.headers.authorization).toBeUndefined();
    expect(sent.body).toEqual({ model: 'prod-embed', input: ['first text', 'second text'], encoding_format: 'base64', dimensions: 4, user: 'u-1' });
    expect(result).toEqual({
      model: 'text-embedding-3-small',
      embeddings: [Float32Array.from([0.0123, -0.0456, 0.789, -0.25]), Float32Array.from([-0.5, 0.125, 0.0078125, 0.3333])],
      usage: { promptTokens: 7, totalTokens: 7 },
    });
  });

  it('uses /openai/v1/embeddings on the v1 surface', async () => {
    const { server, provider } = await serve({ json: json('embeddings') }, { apiVersion: 'v1' });
    await embed(provider)(request);
    expect(server.requests[0]?.path).toBe('/openai/v1/embeddings');
    expect(server.requests[0]?.body).toMatchObject({ model: 'prod-embed' });
  });

  it('maps a missing deployment to not_found', async () => {
    const { provider } = await serve({ status: 404, json: json('error-deployment-not-found') });
    expect(await rejection(embed(provider)(request))).toMatchObject({ kind: 'not_found', upstreamStatus: 404 });
  });
});
