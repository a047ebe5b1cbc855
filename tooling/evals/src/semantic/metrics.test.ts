import { describe, expect, it } from 'vitest';
import { binomialCdf, operatingPoint, proportionInterval } from './metrics.js';

describe('eval metrics', () => {
  it('computes binomial tails from either side', () => {
    expect(binomialCdf(4, 5, 0.97)).toBeCloseTo(1 - 0.97 ** 5, 10);
    expect(binomialCdf(0, 10, 0.5)).toBeCloseTo(1 / 1024, 10);
    expect(binomialCdf(9, 10, 0.5)).toBeCloseTo(1 - 1 / 1024, 10);
  });

  it('gives the exact interval: one wrong hit in five is noise for a 0.97 goal, two are not', () => {
    expect(proportionInterval(4, 5).high).toBeGreaterThan(0.97);
    expect(proportionInterval(3, 5).high).toBeLessThan(0.97);
    const { low, high } = proportionInterval(319, 335);
    expect(low).toBeGreaterThan(0.92);
    expect(high).toBeGreaterThan(0.952);
    expect(high).toBeLessThan(0.975);
    expect(proportionInterval(10, 10)).toMatchObject({ high: 1 });
  });

  it('picks the most recall meeting the goal, else the most recall the goal is not refuted at', () => {
    // 100 hits at score 0.9 with 99 right, then 100 more at 0.5 with 80 right.
    const rows = [
      ...Array.from({ length: 100 }, (_, i) => ({ score: 0.9, positive: i > 0 })),
      ...Array.from({ length: 100 }, (_, i) => ({ score: 0.5, positive: i >= 20 })),
    ];
    const met = operatingPoint(rows, 0.97);
    expect(met).toMatchObject({ met: true, hits: 100, precision: 0.99 });
    expect(met!.threshold).toBeGreaterThan(0.5);
    expect(met!.threshold).toBeLessThanOrEqual(0.9);
    // 5 wrong in the top 100: 0.95 misses the goal, but 0.97 stays inside its interval; 0.85 with the rest does not.
    const noisy = rows.map((r, i) => ({ ...r, positive: i >= 5 && r.positive }));
    expect(operatingPoint(noisy, 0.97)).toMatchObject({ met: false, hits: 100, precision: 0.95 });
    expect(operatingPoint(noisy, 0.999)).toBeUndefined();
  });
});
