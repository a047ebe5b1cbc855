import { describe, expect, it, vi } from 'vitest';

vi.mock('@qdrant/js-client-rest', () => {
  throw new Error('the Qdrant client was loaded');
});

describe('the Qdrant client is loaded when the store first connects', () => {
  it('is not imported with the package, nor by making a store that is never used', async () => {
    const { createQdrantVectorStore, createMemoryVectorStore } = await import('../index.js');
    expect(createQdrantVectorStore({ url: 'http://127.0.0.1:1', dimensions: 4 })).toBeDefined();
    expect(createMemoryVectorStore()).toBeDefined();
  });
});
