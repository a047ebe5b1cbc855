import { describe, expect, it } from 'vitest';
import { dot, phraseVector, phraseWords } from './word-vector-kinds.js';
import { decodeWordTable, encodeWordTable } from './word-table.js';

const table = decodeWordTable(encodeWordTable(['green', 'purple', 'gluten', 'free', 'toast'], [[1, 0, 0], [0.9, 0.1, 0], [0, 1, 0], [0, 0, 2], [0, 0.6, 0.8]], 3));

describe('word table', () => {
  it('keeps unit vectors within int8 rounding and looks words up in lower case', () => {
    const purple = table.vector('Purple')!;
    expect(dot(purple, purple)).toBeCloseTo(1, 2);
    expect(dot(table.vector('green')!, purple)).toBeCloseTo(0.9 / Math.hypot(0.9, 0.1), 2);
    expect(table.vector('teal')).toBeUndefined();
  });
});

describe('phrase vectors', () => {
  it('drops articles and function words, and looks a hyphenated word up by its parts when it lacks it whole', () => {
    expect(phraseWords('a cup of Tea')).toEqual(['cup', 'tea']);
    expect(phraseWords("Trader Joe's")).toEqual(['trader', 'joe']);
    const glutenFree = phraseVector(table, 'gluten-free')!;
    expect(dot(glutenFree, phraseVector(table, 'gluten free')!)).toBeCloseTo(1, 5);
    expect(phraseVector(table, 'the zebra')).toBeUndefined();
  });
});
