import { describe, expect, it } from 'vitest';
import { percentile, SampleBuffer, summarise } from './percentiles.js';

describe('percentile', () => {
  const sorted = Array.from({ length: 100 }, (_, i) => i + 1); // 1..100
  it('uses nearest rank', () => {
    expect(percentile(sorted, 50)).toBe(50);
    expect(percentile(sorted, 99)).toBe(99);
    expect(percentile(sorted, 100)).toBe(100);
    expect(percentile(sorted, 0)).toBe(1);
    expect(percentile([7], 99)).toBe(7);
  });
  it('is NaN for no samples', () => {
    expect(percentile([], 50)).toBeNaN();
  });
});

describe('summarise', () => {
  it('sorts a copy and reports mean, p50, p99 and max with sub-ms precision', () => {
    const values = [0.9, 0.3, 0.5, 0.7, 0.1];
    const s = summarise(values);
    expect(s).toMatchObject({ count: 5, p50: 0.5, p99: 0.9, max: 0.9 });
    expect(s.mean).toBeCloseTo(0.5);
    expect(values[0]).toBe(0.9);
  });
});

describe('SampleBuffer', () => {
  it('grows past its initial capacity without losing samples', () => {
    const buffer = new SampleBuffer();
    for (let i = 0; i < 70_000; i++) buffer.push(i);
    expect(buffer.values().length).toBe(70_000);
    expect(buffer.values()[69_999]).toBe(69_999);
  });
});
