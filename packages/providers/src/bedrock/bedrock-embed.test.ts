import { describe, expect, it } from 'vitest';
import type { EmbeddingRequest, Provider } from '../provider.js';
import { fixtureFiles } from '../test/fixture-files.js';
import type { RecordedRequest } from '../test/fixture-server.js';
import { rejection } from '../test/outcomes.js';
import { useFixtureProvider, useFixtureServer } from '../test/use-fixture-server.js';
import type { TitanEmbedBody } from './bedrock-embed.js';
import { type BedrockSettings, createBedrockProvider } from './bedrock-provider.js';

const { json } = fixtureFiles(new URL('./__fixtures__/', import.meta.url));

const credentials = { accessKeyId: 'AKID', secretAccessKey: 'SECRET' };
const serve = useFixtureProvider((url, settings: Partial<BedrockSettings> = {}) =>
  createBedrockProvider({ region: 'us-east-1', credentials, baseUrl: `${url}/`, ...settings }),
);
const startServer = useFixtureServer();

const embed = (provider: Provider) => {
  if (!provider.embed) throw new Error('provider has no embed');
  return provider.embed.bind(provider);
};

const TITAN = 'amazon.titan-embed-text-v2:0';
const first = Float32Array.from([0.0123, -0.0456, 0.789, -0.25]);
const second = Float32Array.from([-0.5, 0.125, 0.0078125, 0.3333]);

describe('bedrock embed: Titan', () => {
  it('invokes the model once per text, signed, with dimensions and normalize, keeping input order', async () => {
    // Answers each text with a vector holding its number, later texts faster, so order must come from the adapter.
    const server = await startServer((sent: RecordedRequest) => {
      const n = Number((sent.body as TitanEmbedBody).inputText);
      return { json: { embedding: [n], inputTextTokenCount: 2 } };
    });
    const provider = createBedrockProvider({ region: 'us-east-1', credentials, baseUrl: server.url });
    const input = Array.from({ length: 20 }, (_, i) => String(i));
    const result = await embed(provider)({ model: TITAN, input, dimensions: 256 });

    expect(server.requests).toHaveLength(20);
    for (const sent of server.requests) {
      expect(sent.path).toBe('/model/amazon.titan-embed-text-v2%3A0/invoke');
      expect(String(sent.headers.authorization)).toMatch(/^AWS4-HMAC-SHA256 Credential=AKID\//);
      expect(sent.body).toEqual({ inputText: (sent.body as TitanEmbedBody).inputText, dimensions: 256, normalize: true });
    }
    expect(result.embeddings.map((vector) => vector[0])).toEqual(input.map(Number));
    expect(result.usage).toEqual({ promptTokens: 40, totalTokens: 40 });
  });

  it('reads the recorded answer', async () => {
    const { server, provider } = await serve({ json: json('titan-embed') });
    const result = await embed(provider)({ model: TITAN, input: ['first text'] });
    expect(server.requests[0]?.body).toEqual({ inputText: 'first text', normalize: true });
    expect(result).toEqual({ model: TITAN, embeddings: [first], usage: { promptTokens: 3, totalTokens: 3 } });
  });

  it('sends Titan v1 only inputText and refuses dimensions for it before calling', async () => {
    const { server, provider } = await serve({ json: json('titan-embed') });
    await embed(provider)({ model: 'amazon.titan-embed-text-v1', input: ['first text'] });
    expect(server.requests[0]?.body).toEqual({ inputText: 'first text' });
    expect(await rejection(embed(provider)({ model: 'amazon.titan-embed-text-v1', input: ['x'], dimensions: 256 }))).toMatchObject({ kind: 'invalid_request' });
    expect(server.requests).toHaveLength(1);
  });

  it('maps too many input tokens to context_length and stops the other calls', async () => {
    const { server, provider } = await serve({ status: 400, headers: { 'x-amzn-errortype': 'ValidationException:http://internal.amazon.com/coral/com.amazon.bedrock/' }, json: json('titan-embed-too-long') });
    const request: EmbeddingRequest = { model: TITAN, input: Array.from({ length: 40 }, (_, i) => `text ${i}`) };
    expect(await rejection(embed(provider)(request))).toMatchObject({ kind: 'context_length', upstreamStatus: 400 });
    // The first wave of 8 fails; nothing after it is sent.
    expect(server.requests.length).toBeLessThanOrEqual(8);
  });
});

describe('bedrock embed: Cohere', () => {
  it('sends texts and input_type without a model and reads the token count header', async () => {
    const { server, provider } = await serve({ headers: { 'x-amzn-bedrock-input-token-count': '6' }, json: json('cohere-embed') });
    const result = await embed(provider)({ model: 'cohere.embed-english-v3', input: ['first text', 'second text'], inputType: 'query' });

    expect(server.requests[0]?.path).toBe('/model/cohere.embed-english-v3/invoke');
    expect(server.requests[0]?.body).toEqual({ texts: ['first text', 'second text'], input_type: 'search_query', embedding_types: ['float'] });
    expect(result).toEqual({ model: 'cohere.embed-english-v3', embeddings: [first, second], usage: { promptTokens: 6, totalTokens: 6 } });
  });

  it('reads the bare-array answer of a call without embedding types', async () => {
    const { provider } = await serve({ json: { id: 'x', embeddings: [[1, 2], [3, 4]], response_type: 'embeddings_floats', texts: ['a', 'b'] } });
    const result = await embed(provider)({ model: 'us.cohere.embed-v4:0', input: ['a', 'b'] });
    expect(result.embeddings).toEqual([Float32Array.from([1, 2]), Float32Array.from([3, 4])]);
  });
});
