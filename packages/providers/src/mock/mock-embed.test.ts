import { isProviderError } from '@svc/core';
import { describe, expect, it } from 'vitest';
import type { EmbeddingRequest } from '../provider.js';
import { createMockProvider } from './mock-provider.js';

const mock = createMockProvider();
const embed = (request: EmbeddingRequest) => {
  if (!mock.embed) throw new Error('mock has no embed');
  return mock.embed(request);
};

const norm = (vector: Float32Array) => Math.sqrt(vector.reduce((sum, value) => sum + value * value, 0));
const cosine = (a: Float32Array, b: Float32Array) => a.reduce((sum, value, i) => sum + value * b[i]!, 0);

describe('mock embed', () => {
  it('answers the same unit vectors for the same texts, 256 long by default, with usage', async () => {
    const a = await embed({ model: 'mock-embed', input: ['the cat sat on the mat', 'stock markets fell today'] });
    const b = await embed({ model: 'mock-embed', input: ['the cat sat on the mat', 'stock markets fell today'] });
    expect(a.embeddings).toEqual(b.embeddings);
    expect(a.embeddings).toHaveLength(2);
    for (const vector of a.embeddings) {
      expect(vector).toHaveLength(256);
      expect(norm(vector)).toBeCloseTo(1, 5);
    }
    expect(a.embeddings[0]).not.toEqual(a.embeddings[1]);
    expect(a).toMatchObject({ model: 'mock-embed', usage: { promptTokens: 12, totalTokens: 12 } });
  });

  it('keeps input order and honours dimensions', async () => {
    const both = await embed({ model: 'mock-embed', input: ['alpha', 'beta'], dimensions: 64 });
    const reversed = await embed({ model: 'mock-embed', input: ['beta', 'alpha'], dimensions: 64 });
    expect(both.embeddings[0]).toHaveLength(64);
    expect(reversed.embeddings).toEqual([both.embeddings[1], both.embeddings[0]]);
  });

  it('puts texts that share words closer than unrelated ones', async () => {
    const [query, near, far] = (await embed({ model: 'mock-embed', input: ['how do I reset my password', 'reset your password here', 'weather in lisbon tomorrow'] })).embeddings;
    expect(cosine(query!, near!)).toBeGreaterThan(cosine(query!, far!));
  });

  it('gives the empty text a unit vector and rejects impossible dimensions', async () => {
    const [empty] = (await embed({ model: 'mock-embed', input: [''] })).embeddings;
    expect(norm(empty!)).toBeCloseTo(1, 5);
    await expect(embed({ model: 'mock-embed', input: ['x'], dimensions: 0 })).rejects.toMatchObject({ kind: 'invalid_request' });
  });

  it('fails as an upstream would on [mock:error=<status>]', async () => {
    const error = await embed({ model: 'mock-embed', input: ['fine', 'boom [mock:error=429]'] }).catch((caught: unknown) => caught);
    expect(isProviderError(error) && error.kind).toBe('rate_limit');
  });
});
