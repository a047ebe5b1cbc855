import { describe, expect, it } from 'vitest';
import { createProviderEmbedder } from './provider-embedder.js';

function fakeModel() {
  const calls: string[][] = [];
  // A deterministic 3-d "model": vector from the text length and first letter, not normalised.
  const embed = async (texts: string[]) => {
    calls.push(texts);
    return texts.map((t) => [t.length, t.charCodeAt(0) % 7, 2]);
  };
  return { calls, embed };
}

describe('provider-backed embedder', () => {
  it('normalises the model’s vectors and keeps the input order', async () => {
    const model = fakeModel();
    const embedder = createProviderEmbedder({ id: 'fake/model@3', dimensions: 3, embed: model.embed });
    const [a, b] = await embedder.embed(['hello', 'hi']);
    expect(Math.hypot(...a!)).toBeCloseTo(1, 6);
    expect(a![0]! / a![2]!).toBeCloseTo(5 / 2, 5);
    expect(b![0]! / b![2]!).toBeCloseTo(2 / 2, 5);
    expect(embedder.id).toBe('fake/model@3');
  });

  it('serves recent texts from its LRU and sends a repeated text once per batch', async () => {
    const model = fakeModel();
    const embedder = createProviderEmbedder({ id: 'fake', dimensions: 3, embed: model.embed, cacheSize: 2 });
    await embedder.embed(['a question', 'a question', 'another']);
    expect(model.calls).toEqual([['a question', 'another']]);
    await embedder.embed(['a question']);
    expect(model.calls).toHaveLength(1);
    await embedder.embed(['third']); // evicts the least recently used: 'another'
    await embedder.embed(['another', 'a question']);
    expect(model.calls.at(-1)).toEqual(['another']);
  });

  it('hands out copies, so a caller cannot corrupt the cache', async () => {
    const model = fakeModel();
    const embedder = createProviderEmbedder({ id: 'fake', dimensions: 3, embed: model.embed });
    const [first] = await embedder.embed(['text']);
    first!.fill(0);
    const [again] = await embedder.embed(['text']);
    expect(Math.hypot(...again!)).toBeCloseTo(1, 6);
  });

  it('rejects wrong-sized or missing vectors, and the model’s own failures', async () => {
    const short = createProviderEmbedder({ id: 'fake', dimensions: 4, embed: async (t) => t.map(() => [1, 2, 3]) });
    await expect(short.embed(['x'])).rejects.toThrow(/3 dimensions, expected 4/);
    const missing = createProviderEmbedder({ id: 'fake', dimensions: 3, embed: async () => [] });
    await expect(missing.embed(['x'])).rejects.toThrow(/0 vectors for 1 texts/);
    const failing = createProviderEmbedder({ id: 'fake', dimensions: 3, embed: async () => Promise.reject(new Error('429 rate limited')) });
    await expect(failing.embed(['x'])).rejects.toThrow('429 rate limited');
  });
});
