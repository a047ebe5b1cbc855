import { describe, expect, it } from 'vitest';
import { calibratedThreshold, trainedVerifier } from '@svc/semantic';
import { runSemanticCost } from './semantic-cost.js';

describe('runSemanticCost', () => {
  it('times misses and stores at each store size with the trained verifier', async () => {
    const cost = await runSemanticCost({ sizes: [50, 100], lookups: 40 });
    expect(cost.embedder).toBe('hashed-ngram-v1-512');
    expect(cost.threshold).toBe(calibratedThreshold('hashed-ngram-v1-512'));
    expect(cost.verifierThreshold).toBe(trainedVerifier('hashed-ngram-v1-512')!.threshold);
    expect(cost.rows.map((r) => r.entries)).toEqual([50, 100]);
    for (const row of cost.rows) {
      expect(row).toMatchObject({ lookups: 40, hits: 0 });
      expect(row.lookup.count).toBe(40);
      expect(row.store.count).toBe(40);
      expect(row.lookupCpuUs).toBeGreaterThan(0);
    }
  });
});
