import { similarityThreshold } from '@svc/semantic';
import { describe, expect, it } from 'vitest';
import { runSemanticCost, semanticSizes } from './semantic-cost.js';

describe('runSemanticCost', () => {
  it('times the shared sentence encoder, and misses after and with the embedding, at each store size', async () => {
    const cost = await runSemanticCost({ sizes: [30, 60], lookups: 10 });
    expect(cost.embedder).toBe('all-MiniLM-L6-v2');
    expect(cost.dimensions).toBe(384);
    expect(cost.threshold).toBe(similarityThreshold('all-MiniLM-L6-v2'));
    expect(cost.embed.wall.count).toBe(10);
    expect(cost.rows.map((r) => r.entries)).toEqual([30, 60]);
    for (const row of cost.rows) {
      expect(row).toMatchObject({ lookups: 10, hits: 0 });
      expect(row.search.wall.count).toBe(10);
      expect(row.lookup.wall.count).toBe(10);
      expect(row.store.count).toBe(10);
      // Embedding the question is what costs: a lookup given the vector is cheaper.
      expect(row.lookup.cpuUs).toBeGreaterThan(row.search.cpuUs);
    }
  }, 120_000);

  it('measures the gateway capacity and 10,000 entries', () => {
    expect(semanticSizes(1_000)).toEqual([1_000, 10_000]);
  });
});
