import { inTrainingDomain } from '@svc/router';
import { describe, expect, it } from 'vitest';
import { fitPrototypes, keepingThreshold, trainDomain } from './domain.js';
import { seeded } from './metrics.js';

const next = seeded(3);
/** Points scattered around two directions of a 3-d space. */
const around = (axis: number, n: number) => Array.from({ length: n }, () => Float32Array.from([0, 1, 2], (i) => (i === axis ? 1 : 0) + (next() - 0.5) * 0.2));

describe('the training domain', () => {
  it('fits one unit prototype per cluster, the larger first', () => {
    const { prototypes, count } = fitPrototypes([...around(0, 30), ...around(1, 60)], { count: 2, keep: 0.98, folds: 5, sample: 1000, iterations: 10, seed: 1 });
    expect(count).toBe(2);
    expect(prototypes[1]!).toBeGreaterThan(0.95);
    expect(prototypes[3]!).toBeGreaterThan(0.95);
  });

  it('sets the threshold that keeps the asked share', () => {
    expect(keepingThreshold([0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1], 0.9)).toBe(0.2);
  });

  it('keeps prompts like the training ones and refuses a direction never trained on', () => {
    const domain = trainDomain([...around(0, 100), ...around(1, 100)], { count: 4, keep: 0.98, folds: 5, sample: 1000, iterations: 10, seed: 1 });
    expect(domain.kept).toBeGreaterThanOrEqual(0.98);
    expect(around(0, 20).filter((v) => inTrainingDomain(domain, v)).length).toBeGreaterThanOrEqual(19);
    expect(around(2, 20).some((v) => inTrainingDomain(domain, v))).toBe(false);
  });
});
