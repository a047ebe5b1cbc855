import { describe, expect, it } from 'vitest';
import type { EmbeddingRequest, Provider } from '../provider.js';
import { fixtureFiles } from '../test/fixture-files.js';
import type { RecordedRequest } from '../test/fixture-server.js';
import { rejection } from '../test/outcomes.js';
import { useFixtureProvider, useFixtureServer } from '../test/use-fixture-server.js';
import type { CohereEmbedBody } from './cohere-embed.js';
import { createCohereProvider } from './cohere-provider.js';

const { json } = fixtureFiles(new URL('./__fixtures__/', import.meta.url));

const serve = useFixtureProvider((url) => createCohereProvider({ apiKeys: ['co-1', 'co-2'], baseUrl: `${url}/` }));
const startServer = useFixtureServer();

const embed = (provider: Provider) => {
  if (!provider.embed) throw new Error('provider has no embed');
  return provider.embed.bind(provider);
};

const request: EmbeddingRequest = { model: 'embed-v4.0', input: ['first text', 'second text'] };

describe('cohere embed', () => {
  it('posts /v2/embed with texts, search_document by default, float type and output_dimension', async () => {
    const { server, provider } = await serve({ json: json('embed') });
    const result = await embed(provider)({ ...request, dimensions: 256 });

    const sent = server.requests[0]!;
    expect(sent.path).toBe('/v2/embed');
    expect(sent.headers.authorization).toBe('Bearer co-1');
    expect(sent.body).toEqual({ model: 'embed-v4.0', texts: ['first text', 'second text'], input_type: 'search_document', embedding_types: ['float'], output_dimension: 256 });
    expect(result).toEqual({
      model: 'embed-v4.0',
      embeddings: [Float32Array.from([0.0123, -0.0456, 0.789, -0.25]), Float32Array.from([-0.5, 0.125, 0.0078125, 0.3333])],
      usage: { promptTokens: 6, totalTokens: 6 },
    });
  });

  it('sends queries as search_query', async () => {
    const { server, provider } = await serve({ json: json('embed') });
    await embed(provider)({ ...request, inputType: 'query' });
    expect(server.requests[0]?.body).toMatchObject({ input_type: 'search_query' });
  });

  it('splits more than 96 texts into batches, keeps input order and sums billed tokens', async () => {
    const server = await startServer((sent: RecordedRequest) => {
      const texts = (sent.body as CohereEmbedBody).texts;
      return { json: { embeddings: { float: texts.map((text) => [Number(text)]) }, meta: { billed_units: { input_tokens: texts.length } } } };
    });
    const provider = createCohereProvider({ apiKeys: ['co-1'], baseUrl: server.url });
    const input = Array.from({ length: 200 }, (_, i) => String(i));
    const result = await embed(provider)({ model: 'embed-v4.0', input });

    expect(server.requests.map((sent) => (sent.body as CohereEmbedBody).texts.length).sort((a, b) => a - b)).toEqual([8, 96, 96]);
    expect(result.embeddings.map((vector) => vector[0])).toEqual(input.map(Number));
    expect(result.usage).toEqual({ promptTokens: 200, totalTokens: 200 });
  });

  it('maps a 429 to rate_limit and too many tokens to context_length', async () => {
    const { provider: limited } = await serve({ status: 429, json: json('error-rate-limit') });
    expect(await rejection(embed(limited)(request))).toMatchObject({ kind: 'rate_limit', upstreamStatus: 429 });

    const { provider: tooLong } = await serve({ status: 400, json: json('error-too-many-tokens') });
    expect(await rejection(embed(tooLong)(request))).toMatchObject({ kind: 'context_length' });
  });
});
