import { createSentenceEncoder, type SentenceEncoder } from '@svc/encoder';
import { createMemoryVectorStore, createSemanticCache } from '@svc/semantic';
import { cachedAnswer, chatRequest } from '@svc/semantic/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadNearMisses, type NearMiss } from './near-misses.js';

describe('the near-miss set through the shipped semantic cache (the shared sentence encoder, all-MiniLM-L6-v2)', () => {
  let encoder: SentenceEncoder;
  beforeAll(async () => {
    encoder = createSentenceEncoder();
    await encoder.ready;
  });
  afterAll(() => encoder.close());

  it('never answers one question of a pair with the other’s cached answer, though the encoder puts many of them above the threshold', async () => {
    const pairs = loadNearMisses();
    const hits: NearMiss[] = [];
    let close = 0;
    for (const pair of pairs) {
      // One organisation per pair: each lookup sees exactly one stored question.
      const cache = createSemanticCache({ embedder: encoder, store: createMemoryVectorStore() });
      await cache.store(chatRequest(pair.a), 'org', cachedAnswer('the answer to a'));
      const found = await cache.lookup(chatRequest(pair.b), 'org');
      if (found?.hit) hits.push(pair);
      const [a, b] = await encoder.embed([pair.a, pair.b]);
      if (a!.reduce((s, x, i) => s + x * b![i]!, 0) >= cache.threshold) close++;
    }
    expect(hits).toEqual([]);
    // The guard, not the threshold, is what keeps them apart.
    expect(close).toBeGreaterThan(100);
  }, 180_000);
});
