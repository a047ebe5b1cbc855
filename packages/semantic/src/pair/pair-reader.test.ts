import { describe, expect, it } from 'vitest';
import { createHashedEmbedder } from '../embedder/hashed-embedder.js';
import type { Embedder } from '../embedder/interface.js';
import { wordTokens } from '../embedder/tokens.js';
import { createSemanticCache } from '../semantic-cache.js';
import type { VectorPoint } from '../store/interface.js';
import { createMemoryVectorStore } from '../store/memory.js';
import { cachedAnswer, chatRequest } from '../test/index.js';
import { type PairHeadWeights, parsePairHead, scorePair, wordPieceOverlap } from './grid-head.js';
import type { PairReader } from './pair-reader.js';
import { decodeTokenFeatures, encodeTokenFeatures, type TokenFeatures, unpackStoredFeatures } from './token-features.js';

/** Features of a text for the tests: one row per word, its word's hash as id, a one-hot of that hash. */
function wordFeatures(text: string, d = 8): TokenFeatures {
  const words = wordTokens(text);
  const ids = Int32Array.from(words, (w) => [...w].reduce((h, c) => (h * 31 + c.charCodeAt(0)) % 30_000, 7));
  const values = new Float32Array(words.length * d);
  ids.forEach((id, t) => {
    values[t * d + (id % d)] = 1;
  });
  return { count: words.length, dimensions: d, ids, values };
}

/**
 * A reader that refuses two texts whose shared words come in another order (the property a
 * trained pair model learns from PAWS), counting how often it was asked for features.
 */
function orderReader(): PairReader & { featureCalls: string[] } {
  const reader = {
    id: 'order-test-v1',
    dimensions: 8,
    threshold: 0.5,
    featureCalls: [] as string[],
    async features(text: string) {
      reader.featureCalls.push(text);
      return wordFeatures(text);
    },
    score(query: TokenFeatures, stored: TokenFeatures) {
      const shared = [...query.ids].filter((id) => stored.ids.includes(id));
      const inStored = [...stored.ids].filter((id) => shared.includes(id));
      return shared.join() === inStored.join() ? 0.9 : 0.1;
    },
  };
  return reader;
}

const withReader = (reader: PairReader): Embedder => {
  const hashed = createHashedEmbedder();
  return { id: hashed.id, dimensions: hashed.dimensions, embed: (texts) => hashed.embed(texts), pairReader: reader };
};

describe('token features', () => {
  it('round-trip through the stored form within int8 precision, ids exact', () => {
    const f: TokenFeatures = { count: 2, dimensions: 3, ids: Int32Array.of(101, 30_521), values: Float32Array.of(0.5, -1.27, 0, 3, 2, -0.001) };
    const back = decodeTokenFeatures(encodeTokenFeatures(f), 3)!;
    expect(back.ids).toEqual(f.ids);
    expect(back.count).toBe(2);
    for (let i = 0; i < 6; i++) expect(back.values[i]).toBeCloseTo(f.values[i]!, 1);
    expect(decodeTokenFeatures(encodeTokenFeatures(f), 4)).toBeUndefined();
  });
});

describe('grid head', () => {
  // One channel per grid input: conv1 passes the cosine (channel 0) and the same-word-piece flag
  // (channel 1) through their centre taps; conv2 is the identity; out1 reads the mean of channel 1.
  const h = 2;
  const conv1 = new Array(h * 2 * 9).fill(0);
  conv1[(0 * 2 + 0) * 9 + 4] = 1;
  conv1[(1 * 2 + 1) * 9 + 4] = 1;
  const conv2 = new Array(h * h * 9).fill(0);
  conv2[(0 * h + 0) * 9 + 4] = 1;
  conv2[(1 * h + 1) * 9 + 4] = 1;
  const out1 = new Array(16 * (2 * h + 1)).fill(0);
  out1[h + 1] = 1; // mean of the same-word-piece channel
  const head: PairHeadWeights = parsePairHead({ d: 8, h, conv1: { w: conv1, b: [0, 0] }, conv2: { w: conv2, b: [0, 0] }, out1: { w: out1, b: new Array(16).fill(0) }, out2: { w: [10, ...new Array(15).fill(0)], b: [0] } });

  it('reads the grid: more shared word pieces, a higher probability; symmetric here', () => {
    const a = wordFeatures('flights from boston to denver');
    const same = scorePair(head, a, wordFeatures('flights from boston to denver'), 1);
    const fewer = scorePair(head, a, wordFeatures('trains from paris to rome'), 1);
    expect(same).toBeGreaterThan(fewer);
    expect(scorePair(head, wordFeatures('trains from paris to rome'), a, 1)).toBeCloseTo(fewer, 6);
    expect(scorePair(head, a, { ...a, count: 0, ids: new Int32Array(0), values: new Float32Array(0) }, 1)).toBe(0);
  });

  it('reads the first d numbers of features that carry more after them, and refuses narrower ones', () => {
    const widen = (f: TokenFeatures): TokenFeatures => ({ ...f, dimensions: 10, values: Float32Array.from({ length: f.count * 10 }, (_, i) => (i % 10 < 8 ? f.values[Math.floor(i / 10) * 8 + (i % 10)]! : 7)) });
    const [a, b] = [wordFeatures('flights from boston to denver'), wordFeatures('trains from paris to rome')];
    expect(scorePair(head, widen(a), widen(b), 1)).toBeCloseTo(scorePair(head, a, b, 1), 6);
    expect(scorePair(head, a, { ...b, dimensions: 4, values: b.values.subarray(0, b.count * 4) }, 1)).toBe(0);
  });

  it('measures how many word pieces two texts share, in any order', () => {
    expect(wordPieceOverlap(wordFeatures('flights from boston to denver'), wordFeatures('flights from denver to boston'))).toBe(1);
    expect(wordPieceOverlap(wordFeatures('a b c d'), wordFeatures('a b x'))).toBe(0.5);
    expect(wordPieceOverlap(wordFeatures('a a b'), wordFeatures('a b b'))).toBeCloseTo(2 / 3, 6);
  });

  it('rejects weights of the wrong shape', () => {
    expect(() => parsePairHead({ d: 8, h: 3, conv1: { w: conv1, b: [0, 0] }, conv2: { w: conv2, b: [0, 0] }, out1: { w: out1, b: [] }, out2: { w: [], b: [0] } })).toThrow(/conv1 has 36 weights/);
  });
});

describe('semantic cache with a pair model', () => {
  it('refuses the nearest question the pair model reads as another one, serves the one it reads alike', async () => {
    const reader = orderReader();
    const store = createMemoryVectorStore();
    const cache = createSemanticCache({ embedder: withReader(reader), store, verifier: false, threshold: 0.5 });
    expect(cache.pairReader).toBe(reader);
    await cache.store(chatRequest('why does the cat chase the dog'), 'org', cachedAnswer('B-D'));
    expect(await cache.lookup(chatRequest('why does the dog chase the cat'), 'org')).toMatchObject({ hit: false });
    expect(await cache.lookup(chatRequest('why does the cat chase the dog so often'), 'org')).toMatchObject({ hit: true });
  });

  it('keeps the stored question features with its entry, so a lookup computes only the query', async () => {
    const reader = orderReader();
    const store = createMemoryVectorStore();
    const upserted: VectorPoint[] = [];
    const upsert = store.upsert.bind(store);
    store.upsert = async (points) => {
      upserted.push(...points);
      return upsert(points);
    };
    const cache = createSemanticCache({ embedder: withReader(reader), store, verifier: false, threshold: 0.5 });
    await cache.store(chatRequest('why does the cat chase the dog'), 'org', cachedAnswer('B-D'));
    expect(reader.featureCalls).toEqual(['why does the cat chase the dog']);
    const kept = upserted[0]?.payload.meta?.['pairFeatures'] as { model: string; packing: string; data: string };
    expect(kept).toMatchObject({ model: 'order-test-v1', packing: 'q4' });
    expect(unpackStoredFeatures(kept.data, 8)?.ids).toEqual(wordFeatures('why does the cat chase the dog').ids);
    reader.featureCalls.length = 0;
    await cache.lookup(chatRequest('why does the cat chase the dog so often'), 'org');
    expect(reader.featureCalls).toEqual(['why does the cat chase the dog so often']);
  });

  it("reads an entry the previous release stored (int8 features, no packing) from those features, not from its text", async () => {
    const reader = orderReader();
    const store = createMemoryVectorStore();
    const upsert = store.upsert.bind(store);
    // What the release before the 4-bit packing wrote for the same question.
    store.upsert = async (points) =>
      upsert(points.map((p) => ({ ...p, payload: { ...p.payload, meta: { pairFeatures: { model: 'order-test-v1', data: encodeTokenFeatures(wordFeatures(p.payload.text)) } } } })));
    const cache = createSemanticCache({ embedder: withReader(reader), store, verifier: false, threshold: 0.5 });
    await cache.store(chatRequest('why does the cat chase the dog'), 'org', cachedAnswer('B-D'));
    reader.featureCalls.length = 0;
    expect(await cache.lookup(chatRequest('why does the cat chase the dog so often'), 'org')).toMatchObject({ hit: true });
    expect(await cache.lookup(chatRequest('why does the dog chase the cat'), 'org')).toMatchObject({ hit: false });
    expect(reader.featureCalls).toEqual(['why does the cat chase the dog so often', 'why does the dog chase the cat']);
  });

  it('reads an entry stored without features (or by another pair model) from its text; false turns the model off', async () => {
    const reader = orderReader();
    const store = createMemoryVectorStore();
    const plain = createSemanticCache({ embedder: withReader(reader), store, verifier: false, threshold: 0.5, pairReader: false });
    expect(plain.pairReader).toBeUndefined();
    await plain.store(chatRequest('why does the cat chase the dog'), 'org', cachedAnswer('B-D'));
    expect(reader.featureCalls).toEqual([]);
    expect(await plain.lookup(chatRequest('why does the dog chase the cat'), 'org')).toMatchObject({ hit: true });
    const cache = createSemanticCache({ embedder: withReader(reader), store, verifier: false, threshold: 0.5 });
    expect(await cache.lookup(chatRequest('why does the dog chase the cat'), 'org')).toMatchObject({ hit: false });
    expect(reader.featureCalls).toEqual(['why does the dog chase the cat', 'why does the cat chase the dog']);
  });

  it('a failing pair model is a miss, reported, never an error', async () => {
    const reader = orderReader();
    const errors: unknown[] = [];
    const store = createMemoryVectorStore();
    const cache = createSemanticCache({ embedder: withReader(reader), store, verifier: false, threshold: 0.5, onError: (e) => errors.push(e) });
    await cache.store(chatRequest('why does the cat chase the dog'), 'org', cachedAnswer('B-D'));
    reader.features = async () => {
      throw new Error('model gone');
    };
    expect(await cache.lookup(chatRequest('why does the cat chase the dog so often'), 'org')).toMatchObject({ hit: false });
    expect(errors).toHaveLength(1);
  });
});
