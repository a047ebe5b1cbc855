import { describe, expect, it } from 'vitest';
import type { EmbeddingRequest, Provider } from '../provider.js';
import { fixtureFiles } from '../test/fixture-files.js';
import type { RecordedRequest } from '../test/fixture-server.js';
import { rejection } from '../test/outcomes.js';
import { useFixtureProvider, useFixtureServer } from '../test/use-fixture-server.js';
import { createGeminiProvider } from './gemini-provider.js';

const { json } = fixtureFiles(new URL('./__fixtures__/', import.meta.url));

const serve = useFixtureProvider((url) => createGeminiProvider({ apiKeys: ['g-1'], baseUrl: `${url}/` }));
const startServer = useFixtureServer();

const embed = (provider: Provider) => {
  if (!provider.embed) throw new Error('provider has no embed');
  return provider.embed.bind(provider);
};

const request: EmbeddingRequest = { model: 'gemini-embedding-001', input: ['first text', 'second text'] };

interface SentBatch {
  requests: { model: string; content: { parts: { text: string }[] }; taskType?: string; outputDimensionality?: number }[];
}

describe('gemini embed', () => {
  it('posts batchEmbedContents with taskType and outputDimensionality and estimates usage', async () => {
    const { server, provider } = await serve({ json: json('batch-embed') });
    const result = await embed(provider)({ ...request, dimensions: 4, inputType: 'query' });

    const sent = server.requests[0]!;
    expect(sent.path).toBe('/v1beta/models/gemini-embedding-001:batchEmbedContents');
    expect(sent.headers['x-goog-api-key']).toBe('g-1');
    expect(sent.body).toEqual({
      requests: [
        { model: 'models/gemini-embedding-001', content: { parts: [{ text: 'first text' }] }, taskType: 'RETRIEVAL_QUERY', outputDimensionality: 4 },
        { model: 'models/gemini-embedding-001', content: { parts: [{ text: 'second text' }] }, taskType: 'RETRIEVAL_QUERY', outputDimensionality: 4 },
      ],
    });
    // Gemini reports no tokens: ceil(10/4) + ceil(11/4).
    expect(result).toEqual({
      model: 'gemini-embedding-001',
      embeddings: [Float32Array.from([0.0123, -0.0456, 0.789, -0.25]), Float32Array.from([-0.5, 0.125, 0.0078125, 0.3333])],
      usage: { promptTokens: 6, totalTokens: 6 },
    });
  });

  it('sends documents as RETRIEVAL_DOCUMENT and no taskType when none is given', async () => {
    const { server, provider } = await serve({ json: json('batch-embed') });
    await embed(provider)({ ...request, inputType: 'document' });
    await embed(provider)(request);
    const [document, plain] = server.requests.map((sent) => (sent.body as SentBatch).requests[0]);
    expect(document?.taskType).toBe('RETRIEVAL_DOCUMENT');
    expect(plain).toEqual({ model: 'models/gemini-embedding-001', content: { parts: [{ text: 'first text' }] } });
  });

  it('splits more than 100 texts into batches and keeps input order', async () => {
    // Each vector's single value is the number in its text, so order is visible in the result.
    const server = await startServer((sent: RecordedRequest) => ({
      json: { embeddings: (sent.body as SentBatch).requests.map((r) => ({ values: [Number(r.content.parts[0]?.text)] })) },
    }));
    const provider = createGeminiProvider({ apiKeys: ['g-1'], baseUrl: server.url });
    const input = Array.from({ length: 250 }, (_, i) => String(i));
    const result = await embed(provider)({ model: 'gemini-embedding-001', input });

    expect(server.requests.map((sent) => (sent.body as SentBatch).requests.length).sort((a, b) => a - b)).toEqual([50, 100, 100]);
    expect(result.embeddings.map((vector) => vector[0])).toEqual(input.map(Number));
  });

  it('maps an over-long text to context_length and RESOURCE_EXHAUSTED to rate_limit with its retry delay', async () => {
    const { provider: tooLong } = await serve({ status: 400, json: json('embed-too-long') });
    expect(await rejection(embed(tooLong)(request))).toMatchObject({ kind: 'context_length', upstreamStatus: 400 });

    const { provider: limited } = await serve({ status: 429, json: json('rate-limit') });
    expect(await rejection(embed(limited)(request))).toMatchObject({ kind: 'rate_limit', retryAfterMs: 34_000 });
  });
});
