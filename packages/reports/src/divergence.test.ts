import { describe, expect, it } from 'vitest';
import { jensenShannonBits } from './divergence.js';

const counts = (entries: Record<string, number>) => new Map(Object.entries(entries));

describe('jensenShannonBits', () => {
  it('is 0 for the same shares, whatever the counts', () => {
    expect(jensenShannonBits(counts({ a: 1, b: 3 }), counts({ a: 10, b: 30 }))).toBe(0);
  });

  it('is 1 bit for distributions with no value in common', () => {
    expect(jensenShannonBits(counts({ a: 5 }), counts({ b: 2, c: 7 }))).toBe(1);
  });

  it('matches H(M) - (H(P) + H(Q)) / 2 and is symmetric', () => {
    const h = (...p: number[]) => -p.reduce((sum, x) => sum + (x > 0 ? x * Math.log2(x) : 0), 0);
    const expected = h(0.75, 0.25) - (h(1) + h(0.5, 0.5)) / 2;
    expect(jensenShannonBits(counts({ a: 4 }), counts({ a: 1, b: 1 }))).toBeCloseTo(expected, 12);
    expect(jensenShannonBits(counts({ a: 1, b: 1 }), counts({ a: 4 }))).toBeCloseTo(expected, 12);
    expect(expected).toBeCloseTo(0.311278, 6);
  });

  it('is null when a side has nothing to compare', () => {
    expect(jensenShannonBits(counts({}), counts({ a: 1 }))).toBeNull();
    expect(jensenShannonBits(counts({ a: 0 }), counts({ a: 1 }))).toBeNull();
  });

  it('treats null as a value of its own', () => {
    expect(jensenShannonBits(new Map([[null, 2]]), new Map([['x', 2]]))).toBe(1);
  });
});
