import type { CachedAnswer } from '@svc/core';
import { describe, expect, it } from 'vitest';
import { createHashedEmbedder } from './embedder/hashed-embedder.js';
import type { Embedder } from './embedder/interface.js';
import { createSemanticCache, type SemanticCacheSettings } from './semantic-cache.js';
import type { VectorStore } from './store/interface.js';
import { createMemoryVectorStore } from './store/memory.js';
import { createQdrantVectorStore } from './store/qdrant.js';
import { cachedAnswer, chatRequest } from './test/index.js';
import { trainedVerifier } from './verifier/trained.js';

const ask = chatRequest;
const paris = cachedAnswer('Paris.');

function counting(embedder: Embedder): Embedder & { calls: number } {
  const wrapped = {
    id: embedder.id,
    dimensions: embedder.dimensions,
    calls: 0,
    embed: (texts: readonly string[]) => {
      wrapped.calls++;
      return embedder.embed(texts);
    },
  };
  return wrapped;
}

/** A store whose every call fails the way an unreachable backend does. */
function downStore(): VectorStore {
  const fail = () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:6333'));
  return { kind: 'qdrant', upsert: fail, search: fail, deletePoints: fail, deleteByOrg: fail, count: fail, ping: async () => false, close: async () => {} };
}

async function stored(question: string, settings: Pick<SemanticCacheSettings, 'threshold' | 'keyTermGuard' | 'verifier'> = {}, answer: CachedAnswer = paris) {
  let clock = 1_700_000_000_000;
  const store = createMemoryVectorStore({ now: () => clock });
  const cache = createSemanticCache({ embedder: createHashedEmbedder(), store, now: () => clock, ...settings });
  await cache.store(ask(question), 'org-a', answer);
  return { cache, store, advance: (ms: number) => (clock += ms) };
}

describe('semantic cache', () => {
  it('decides with the verifier trained for its embedder, and insists on a threshold without one', () => {
    const cache = createSemanticCache({ embedder: createHashedEmbedder(), store: createMemoryVectorStore() });
    expect(cache.verifier).toBe(trainedVerifier('hashed-ngram-v1-512'));
    expect(cache.threshold).toBe(cache.verifier!.candidateFloor);
    expect(() => createSemanticCache({ embedder: createHashedEmbedder({ dimensions: 256 }), store: createMemoryVectorStore() })).toThrow(/no calibrated semantic-cache threshold for embedder hashed-ngram-v1-d256/);
    expect(() => createSemanticCache({ embedder: createHashedEmbedder(), store: createMemoryVectorStore(), verifier: false })).toThrow(/no calibrated semantic-cache threshold/);
    const other = createSemanticCache({ embedder: createHashedEmbedder({ dimensions: 256 }), store: createMemoryVectorStore(), threshold: 0.9 });
    expect(other.verifier).toBeUndefined();
  });

  it('misses, stores, then answers the same question asked another way', async () => {
    const { cache } = await stored('How do I reverse a list in Python?');
    expect((await cache.lookup(ask('how do i reverse a list in python'), 'org-a'))).toMatchObject({ hit: true, answer: paris, similarity: 1 });
    const reworded = await cache.lookup(ask('How can I reverse a list in Python?'), 'org-a');
    expect(reworded).toMatchObject({ hit: true, answer: paris });
    expect(reworded?.hit && reworded.similarity).toBeLessThan(1);
    expect((await cache.lookup(ask('How tall is the Eiffel Tower?'), 'org-a'))?.hit).toBe(false);
  });

  it('misses a near question the verifier does not accept, however close the vectors', async () => {
    const { cache } = await stored('What is the capital of France?');
    expect((await cache.lookup(ask('What was the capital of France?'), 'org-a'))?.hit).toBe(false);
    expect((await cache.lookup(ask('What is the capital of Spain?'), 'org-a'))?.hit).toBe(false);
    const versus = await stored('How is Apple better than Samsung?');
    // Same words in another order: cosine above the floor, another question.
    expect((await versus.cache.lookup(ask('How is Samsung better than Apple?'), 'org-a'))?.hit).toBe(false);
  });

  it('refuses the same question about another entity even when the vectors are close enough', async () => {
    // Similarity alone at a low threshold stands for an embedding model that scores these two above its own threshold.
    const guarded = await stored('What is the capital of France?', { threshold: 0.6, verifier: false });
    expect((await guarded.cache.lookup(ask('What is the capital of Spain?'), 'org-a'))?.hit).toBe(false);
    expect((await guarded.cache.lookup(ask("What's the capital of France?"), 'org-a'))?.hit).toBe(true);
    const unguarded = await stored('What is the capital of France?', { threshold: 0.6, keyTermGuard: false, verifier: false });
    expect((await unguarded.cache.lookup(ask('What is the capital of Spain?'), 'org-a'))?.hit).toBe(true);
  });

  it('uses a vector the caller already computed instead of embedding again', async () => {
    const embedder = counting(createHashedEmbedder());
    const cache = createSemanticCache({ embedder, store: createMemoryVectorStore() });
    await cache.store(ask('How do I reverse a list in Python?'), 'org-a', paris);
    const calls = embedder.calls;
    const [vector] = await createHashedEmbedder().embed(['How do I reverse a list in Python?']);
    expect(await cache.lookup(ask('How do I reverse a list in Python?'), 'org-a', undefined, vector)).toMatchObject({ hit: true, answer: paris });
    expect(embedder.calls).toBe(calls);
    // A vector of another length is not this embedder's: the question is embedded here.
    expect((await cache.lookup(ask('How do I reverse a list in Python?'), 'org-a', undefined, new Float32Array(3)))?.hit).toBe(true);
    expect(embedder.calls).toBe(calls + 1);
  });

  it('without a verifier: the nearest question decides, and a second one as close makes the query ambiguous', async () => {
    const axis = (values: number[]) => Float32Array.from(values);
    const vectors: Record<string, Float32Array> = {
      'How do I learn Go?': axis([1, 0, 0]),
      'How do I learn Rust?': axis([0.8, 0.6, 0]),
      'How do I learn Go and Rust?': axis([0.9, 0.3, 0]),
      'What is the capital of France?': axis([0, 0, 1]),
      'What is the capital of Spain?': axis([0, 0.1, 0.995]),
    };
    const embedder: Embedder = { id: 'table', dimensions: 3, embed: async (texts) => texts.map((t) => vectors[t]!) };
    const cache = createSemanticCache({ embedder, store: createMemoryVectorStore(), threshold: 0.9, ambiguityMargin: 0.05, candidates: 5 });
    for (const question of ['How do I learn Go?', 'How do I learn Rust?', 'What is the capital of Spain?']) await cache.store(ask(question), 'org-a', cachedAnswer(question));
    // Go and Rust are equally near (0.95 each): either answer may be the wrong one.
    expect((await cache.lookup(ask('How do I learn Go and Rust?'), 'org-a'))?.hit).toBe(false);
    expect(await cache.lookup(ask('How do I learn Go?'), 'org-a')).toMatchObject({ hit: true, answer: cachedAnswer('How do I learn Go?') });
    // The nearest is a near miss (another name): no farther entry is served instead.
    expect((await cache.lookup(ask('What is the capital of France?'), 'org-a'))?.hit).toBe(false);
  });

  it('never answers another organisation or another scope', async () => {
    const { cache } = await stored('What is the capital of France?');
    expect((await cache.lookup(ask('What is the capital of France?'), 'org-b'))?.hit).toBe(false);
    expect((await cache.lookup(ask('What is the capital of France?', { model: 'openai/gpt-4o' }), 'org-a'))?.hit).toBe(false);
    const pirate = ask('What is the capital of France?', { messages: [{ role: 'system', content: 'Talk like a pirate.' }, { role: 'user', content: 'What is the capital of France?' }] });
    expect((await cache.lookup(pirate, 'org-a'))?.hit).toBe(false);
  });

  it('forgets answers after their ttl', async () => {
    const { cache, advance } = await stored('What is the capital of France?');
    advance(86_400_000 - 1);
    expect((await cache.lookup(ask('What is the capital of France?'), 'org-a'))?.hit).toBe(true);
    advance(1);
    expect((await cache.lookup(ask('What is the capital of France?'), 'org-a'))?.hit).toBe(false);
  });

  it('does not serve an answer longer than the request’s max_tokens allows', async () => {
    const { cache } = await stored('What is the capital of France?');
    // The stored answer used 7 completion tokens.
    expect((await cache.lookup(ask('What is the capital of France?', { maxTokens: 6 }), 'org-a'))?.hit).toBe(false);
  });

  it('returns undefined for an ineligible request and stores nothing for it', async () => {
    const { cache, store } = await stored('What is the capital of France?');
    const withTools = ask('What is the weather in Paris?', { tools: [{ name: 'weather' }] });
    expect(await cache.lookup(withTools, 'org-a')).toBeUndefined();
    await cache.store(withTools, 'org-a', paris);
    expect(await store.count()).toBe(1);
  });

  it('stores with the embedding its miss computed, and storing again replaces the entry', async () => {
    const embedder = counting(createHashedEmbedder());
    const store = createMemoryVectorStore();
    const cache = createSemanticCache({ embedder, store });
    const miss = await cache.lookup(ask('Name three primary colours.'), 'org-a');
    expect(miss?.hit).toBe(false);
    await cache.store(ask('Name three primary colours.'), 'org-a', paris, miss);
    expect(embedder.calls).toBe(1);
    await cache.store(ask('Name three primary colours.'), 'org-a', cachedAnswer('Red, yellow, blue.'));
    expect(embedder.calls).toBe(2);
    expect(await store.count()).toBe(1);
    const hit = await cache.lookup(ask('name three primary colours'), 'org-a');
    expect(hit?.hit && hit.answer.result.choices[0]!.message.content).toBe('Red, yellow, blue.');
    // A miss of another organisation is not reused for this one.
    const foreign = await cache.lookup(ask('Name three primary colours.'), 'org-b');
    await cache.store(ask('Name three primary colours.'), 'org-c', paris, foreign);
    expect(await store.count('org-c')).toBe(1);
  });

  it('turns a store that is down into misses and skipped stores, reported to onError', async () => {
    const errors: string[] = [];
    const cache = createSemanticCache({ embedder: createHashedEmbedder(), store: downStore(), onError: (_, operation) => errors.push(operation) });
    const found = await cache.lookup(ask('What is the capital of France?'), 'org-a');
    expect(found?.hit).toBe(false);
    await expect(cache.store(ask('What is the capital of France?'), 'org-a', paris, found)).resolves.toBeUndefined();
    expect(errors).toEqual(['search', 'upsert']);
    expect(await cache.ping()).toBe(false);
    await expect(cache.purge('org-a')).rejects.toThrow(/ECONNREFUSED/);
  });

  it('with Qdrant unreachable: a quick miss, and ping false', async () => {
    const errors: unknown[] = [];
    const store = createQdrantVectorStore({ url: 'http://127.0.0.1:1', dimensions: 512, timeoutMs: 300 });
    const cache = createSemanticCache({ embedder: createHashedEmbedder(), store, onError: (error) => errors.push(error) });
    const started = Date.now();
    expect((await cache.lookup(ask('What is the capital of France?'), 'org-a'))?.hit).toBe(false);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(errors).toHaveLength(1);
    expect(await cache.ping()).toBe(false);
    await cache.close();
  });

  it('gives up on a store slower than lookupTimeoutMs, and on a failing embedder', async () => {
    const hanging: VectorStore = { ...downStore(), search: () => new Promise(() => {}) };
    const errors: string[] = [];
    const slow = createSemanticCache({ embedder: createHashedEmbedder(), store: hanging, lookupTimeoutMs: 30, onError: (_, operation) => errors.push(operation) });
    const started = Date.now();
    expect((await slow.lookup(ask('What is the capital of France?'), 'org-a'))?.hit).toBe(false);
    expect(Date.now() - started).toBeLessThan(500);
    const broken: Embedder = { id: 'hashed-ngram-v1-512', dimensions: 512, embed: () => Promise.reject(new Error('model unavailable')) };
    const noEmbed = createSemanticCache({ embedder: broken, store: createMemoryVectorStore(), onError: (_, operation) => errors.push(operation) });
    expect(await noEmbed.lookup(ask('What is the capital of France?'), 'org-a')).toEqual({ hit: false });
    await noEmbed.store(ask('What is the capital of France?'), 'org-a', paris);
    expect(errors).toEqual(['search', 'embed', 'embed']);
  });

  it('purges one organisation', async () => {
    const { cache, store } = await stored('What is the capital of France?');
    await cache.store(ask('What is the capital of France?'), 'org-b', paris);
    await cache.purge('org-a');
    expect(await store.count('org-a')).toBe(0);
    expect(await store.count('org-b')).toBe(1);
  });
});
