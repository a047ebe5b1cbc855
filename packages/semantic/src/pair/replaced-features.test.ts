import { describe, expect, it } from 'vitest';
import { replacedFeatures, type WordTable } from './replaced-features.js';

// A table of four directions: ids 10 and 11 are near (a synonym), 12 is unrelated to both; 1 is a function word.
const rows: Record<number, number[]> = { 10: [1, 0, 0], 11: [0.8, 0.6, 0], 12: [0, 0, 1], 13: [0, 1, 0], 1: [0, 0.6, 0.8] };
const table: WordTable = (id) => Float32Array.from(rows[id] ?? [0, 0, 0]);
const lex = { relations: new Set([1]), other: new Set<number>() };
const ids = (...values: number[]) => Int32Array.from(values);

describe('replacedFeatures', () => {
  it('reads a pair that only moved words as nothing replaced', () => {
    expect(replacedFeatures(ids(10, 1, 12), ids(12, 1, 10), lex, table)).toEqual([1, 1, 0, 0, 0]);
  });

  it('reads a synonym put in as related, an unrelated word as unrelated', () => {
    const [min, mean, unrelated, related] = replacedFeatures(ids(10, 13), ids(11, 13), lex, table);
    expect(min).toBeCloseTo(0.8);
    expect(mean).toBeCloseTo(0.8);
    expect([unrelated, related]).toEqual([0, Math.log1p(2)]);
    const other = replacedFeatures(ids(10, 13), ids(12, 13), lex, table);
    expect(other.slice(0, 4)).toEqual([0, 0, Math.log1p(2), 0]);
  });

  it('counts a function word only one side has apart from content words', () => {
    expect(replacedFeatures(ids(10, 1, 13), ids(10, 13), lex, table)).toEqual([1, 1, 0, 0, Math.log1p(1)]);
  });
});
