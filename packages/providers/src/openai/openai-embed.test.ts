import { describe, expect, it } from 'vitest';
import type { EmbeddingRequest } from '../provider.js';
import { fixtureFiles } from '../test/fixture-files.js';
import { rejection } from '../test/outcomes.js';
import { useFixtureProvider } from '../test/use-fixture-server.js';
import { compatibleVendors } from './compatible-vendors.js';
import { type OpenAIProviderSettings, createOpenAIProvider } from './openai-provider.js';

const { json } = fixtureFiles(new URL('./__fixtures__/', import.meta.url));

const serve = useFixtureProvider((url, settings: Partial<OpenAIProviderSettings> = {}) =>
  createOpenAIProvider({ apiKeys: ['sk-1', 'sk-2'], baseUrl: `${url}/v1`, ...settings }),
);

const request: EmbeddingRequest = { model: 'text-embedding-3-small', input: ['first text', 'second text'] };
/** The fixtures' vectors as float32 (what a Float32Array holds). */
const first = Float32Array.from([0.0123, -0.0456, 0.789, -0.25]);
const second = Float32Array.from([-0.5, 0.125, 0.0078125, 0.3333]);

function embedOf(provider: ReturnType<typeof createOpenAIProvider>) {
  if (!provider.embed) throw new Error('provider has no embed');
  return provider.embed.bind(provider);
}

describe('openai embed', () => {
  it('asks for base64 with dimensions and user, and places vectors by index with usage', async () => {
    const { server, provider } = await serve({ json: json('embeddings-base64') });
    const result = await embedOf(provider)({ ...request, dimensions: 4, user: 'u-1', inputType: 'query' }, { headers: { 'x-trace': 't-1' } });

    const sent = server.requests[0]!;
    expect(sent.method).toBe('POST');
    expect(sent.path).toBe('/v1/embeddings');
    expect(sent.headers.authorization).toBe('Bearer sk-1');
    expect(sent.headers['x-trace']).toBe('t-1');
    expect(sent.body).toEqual({ model: 'text-embedding-3-small', input: ['first text', 'second text'], encoding_format: 'base64', dimensions: 4, user: 'u-1' });
    // The fixture lists index 1 before index 0.
    expect(result).toEqual({ model: 'text-embedding-3-small', embeddings: [first, second], usage: { promptTokens: 9, totalTokens: 9 } });
    expect(result.embeddings[0]).toBeInstanceOf(Float32Array);
  });

  it('reads a float answer to the same vectors as the base64 one', async () => {
    const { provider: floats } = await serve({ json: json('embeddings-float') });
    const { provider: packed } = await serve({ json: json('embeddings-base64') });
    const fromFloats = await embedOf(floats)(request);
    const fromBase64 = await embedOf(packed)(request);
    expect(fromBase64.embeddings).toEqual(fromFloats.embeddings);
  });

  it('leaves encoding_format out for an unknown compatible vendor, and takes a base64 answer anyway', async () => {
    const { server, provider } = await serve({ json: json('embeddings-base64') }, { id: 'vllm' });
    const result = await embedOf(provider)(request);
    expect(server.requests[0]?.body).toEqual({ model: 'text-embedding-3-small', input: ['first text', 'second text'] });
    expect(result.embeddings).toEqual([first, second]);
  });

  it('speaks Mistral: output_dimension, no user, base64', async () => {
    const { server, provider } = await serve({ json: json('mistral-embeddings') }, { id: 'mistral', compatibility: compatibleVendors.mistral?.compatibility });
    const result = await embedOf(provider)({ model: 'codestral-embed', input: ['first text', 'second text'], dimensions: 256, user: 'u-1' });
    expect(server.requests[0]?.path).toBe('/v1/embeddings');
    expect(server.requests[0]?.body).toEqual({ model: 'codestral-embed', input: ['first text', 'second text'], encoding_format: 'base64', output_dimension: 256 });
    expect(result).toEqual({ model: 'codestral-embed', embeddings: [first, second], usage: { promptTokens: 12, totalTokens: 12 } });
  });

  it('asks Ollama for base64 without a key', async () => {
    const { server, provider } = await serve({ json: json('embeddings-float') }, { id: 'ollama', apiKeys: [], compatibility: compatibleVendors.ollama?.compatibility });
    await embedOf(provider)({ model: 'nomic-embed-text', input: ['first text', 'second text'] });
    expect(server.requests[0]?.headers.authorization).toBeUndefined();
    expect(server.requests[0]?.body).toMatchObject({ encoding_format: 'base64' });
  });

  it('has no embed for vendors without an embeddings endpoint', () => {
    const groq = createOpenAIProvider({ id: 'groq', apiKeys: ['k'], compatibility: compatibleVendors.groq?.compatibility });
    expect(groq.embed).toBeUndefined();
    expect(createOpenAIProvider({ apiKeys: ['k'] }).embed).toBeTypeOf('function');
  });

  it('maps an over-long input to context_length and a 429 to rate_limit with its retry hint', async () => {
    const { provider: tooLong } = await serve({ status: 400, json: json('embeddings-error-input-too-long') });
    const error = await rejection(embedOf(tooLong)(request));
    expect(error).toMatchObject({ kind: 'context_length', upstreamStatus: 400, param: 'input' });

    const { provider: limited } = await serve({ status: 429, headers: { 'retry-after': '2' }, json: json('error-rate-limit') });
    expect(await rejection(embedOf(limited)(request))).toMatchObject({ kind: 'rate_limit', retryable: true, retryAfterMs: 2000 });
  });

  it('rejects an answer with a vector missing or unreadable as a server error', async () => {
    const one = json('embeddings-float') as { data: unknown[] };
    const { provider } = await serve({ json: { ...one, data: one.data.slice(0, 1) } });
    expect(await rejection(embedOf(provider)(request))).toMatchObject({ kind: 'server' });

    const { provider: garbled } = await serve({ json: { ...one, data: [{ index: 0, embedding: 'not base64!' }, { index: 1, embedding: [1, 'x'] }] } });
    expect(await rejection(embedOf(garbled)(request))).toMatchObject({ kind: 'server' });
  });
});
