import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createHashedEmbedder } from './embedder/hashed-embedder.js';
import { createSemanticCache } from './semantic-cache.js';
import { createMemoryVectorStore } from './store/memory.js';
import { cachedAnswer, chatRequest } from './test/index.js';

interface NearMiss {
  kind: 'entity' | 'date' | 'number' | 'unit' | 'negation' | 'direction';
  a: string;
  b: string;
}

const nearMisses = readFileSync(new URL('../data/near-misses.jsonl', import.meta.url), 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line) as NearMiss);

describe('the near-miss set (data/near-misses.jsonl)', () => {
  it('holds at least 300 pairs of every kind the guard must tell apart', () => {
    expect(nearMisses.length).toBeGreaterThanOrEqual(300);
    expect(new Set(nearMisses.map((pair) => pair.kind))).toEqual(new Set(['entity', 'date', 'number', 'unit', 'negation', 'direction']));
  });

  it('never answers one question of a pair with the other’s cached answer (shipped cache: hashed embedder, verifier, key-term guard)', async () => {
    const hits: NearMiss[] = [];
    for (const pair of nearMisses) {
      // One organisation per pair: each lookup sees exactly one stored question.
      const cache = createSemanticCache({ embedder: createHashedEmbedder(), store: createMemoryVectorStore() });
      await cache.store(chatRequest(pair.a), 'org', cachedAnswer('the answer to a'));
      const found = await cache.lookup(chatRequest(pair.b), 'org');
      if (found?.hit) hits.push(pair);
    }
    expect(hits).toEqual([]);
  });
});
