import { describe, expect, it } from 'vitest';
import type { ImageGenerationRequest, Provider } from '../provider.js';
import { fixtureFiles } from '../test/fixture-files.js';
import { rejection } from '../test/outcomes.js';
import { useFixtureProvider } from '../test/use-fixture-server.js';
import { type AzureSettings, createAzureOpenAIProvider } from './azure-provider.js';

const { json } = fixtureFiles(new URL('./__fixtures__/', import.meta.url));
const openai = fixtureFiles(new URL('../openai/__fixtures__/', import.meta.url));

const serve = useFixtureProvider((url, settings: Partial<AzureSettings> = {}) =>
  createAzureOpenAIProvider({ apiKeys: ['az-key-1'], baseUrl: url, deployments: { 'dall-e-3': 'prod-dalle' }, ...settings }),
);

const request: ImageGenerationRequest = { model: 'dall-e-3', prompt: 'a lighthouse', n: 1, size: '1024x1024', quality: 'standard' };

function generate(provider: Provider) {
  if (!provider.generateImages) throw new Error('provider has no generateImages');
  return provider.generateImages.bind(provider);
}

describe('azure image generation', () => {
  it('posts to the deployment with an api-key header and the OpenAI body', async () => {
    const { server, provider } = await serve({ json: openai.json('images-dall-e-3') });
    const result = await generate(provider)(request);
    expect(server.requests[0]?.path).toBe('/openai/deployments/prod-dalle/images/generations?api-version=2024-10-21');
    expect(server.requests[0]?.headers['api-key']).toBe('az-key-1');
    expect(server.requests[0]?.headers.authorization).toBeUndefined();
    expect(server.requests[0]?.body).toEqual({ model: 'prod-dalle', prompt: 'a lighthouse', n: 1, size: '1024x1024', quality: 'standard', response_format: 'b64_json' });
    expect(result.images).toHaveLength(1);
  });

  it('uses /openai/v1/images/generations on the v1 surface', async () => {
    const { server, provider } = await serve({ json: openai.json('images-dall-e-3') }, { apiVersion: 'v1' });
    await generate(provider)(request);
    expect(server.requests[0]?.path).toBe('/openai/v1/images/generations');
  });

  it('maps a prompt refused by the content filter to content_filter', async () => {
    const { provider } = await serve({ status: 400, json: json('error-image-content-policy') });
    expect(await rejection(generate(provider)(request))).toMatchObject({ kind: 'content_filter', status: 400, upstreamStatus: 400 });
  });
});
