import { createMemoryVectorStore, createSemanticCache, type Embedder, keyTerms, mayShareAnswer, type SemanticCacheSettings } from '@svc/semantic';
import { cachedAnswer, chatRequest } from '@svc/semantic/test';
import type { QqpPair } from '../dataset.js';
import { type Answered, type Protocol, runProtocol } from './client.js';
import { asked } from './pairs.js';

function dot(x: Float32Array, y: Float32Array): number {
  let s = 0;
  for (let i = 0; i < x.length; i++) s += x[i]! * y[i]!;
  return s;
}

/** The offline figure of docs/caching.md on these pairs, one pair at a time: whether `b` hits its `a` (the guard passes and cosine >= threshold). */
export async function pairByPair(embedder: Embedder, pairs: readonly QqpPair[], threshold: number): Promise<boolean[]> {
  const hits: boolean[] = [];
  for (const pair of pairs) {
    const [a, b] = [asked(pair.a), asked(pair.b)];
    const [va, vb] = await embedder.embed([a, b]);
    hits.push(mayShareAnswer(keyTerms(b), keyTerms(a)) && dot(va!, vb!) >= threshold);
  }
  return hits;
}

/**
 * The live protocol without HTTP: the production lookup and store (in-process index of
 * `capacity` entries, the embedder's shipped calibration unless `decision` overrides it), each miss stored before the next
 * question, answers that say which question they came from. Same output shape as a live run.
 */
export async function simulateProtocol(
  embedder: Embedder,
  pairs: readonly QqpPair[],
  protocol: Protocol,
  capacity: number,
  decision: Partial<SemanticCacheSettings> = {},
): Promise<{ a: Answered[]; b: Answered[] }> {
  const cache = createSemanticCache({ embedder, store: createMemoryVectorStore({ capacity }), ttlMs: 3_600_000, lookupTimeoutMs: 60_000, ...decision });
  let next = 0;
  const ask = async (question: string): Promise<Answered> => {
    const requestId = `req-${next++}`;
    const request = chatRequest(question);
    const [vector] = await embedder.embed([asked(question)]);
    const found = await cache.lookup(request, 'org', undefined, vector);
    if (found?.hit) {
      const source = found.answer.requestId;
      return { question, requestId, cacheType: 'semantic', similarity: found.similarity, cachedRequestId: source };
    }
    await cache.store(request, 'org', { ...cachedAnswer('answer'), requestId }, found);
    return { question, requestId, cacheType: undefined, similarity: undefined, cachedRequestId: undefined };
  };
  return runProtocol(ask, pairs, protocol);
}
