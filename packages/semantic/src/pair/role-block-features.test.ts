import { describe, expect, it } from 'vitest';
import { orderBreaks, rotatedDiscordance, wordsDiffer } from './role-block-features.js';

const places = (js: number[]) => js.map((j, i) => ({ i, j }));

describe('block features', () => {
  it('read a clause moved to the front as a rotation, with nothing left out of order', () => {
    // "x y z when a b" -> "when a b , x y z": the matched words 0..4 land at 4,5,6,0,1 of 7.
    const moved = places([4, 5, 6, 0, 1]);
    expect(rotatedDiscordance(moved, 7)).toBe(0);
    expect(orderBreaks(moved)).toBeCloseTo(1 / 4, 5);
  });

  it('leave two words that traded places out of order whatever the starting point', () => {
    // "flights boston denver" -> "flights denver boston"
    const swapped = places([0, 2, 1]);
    expect(rotatedDiscordance(swapped, 3)).toBeGreaterThan(0);
    expect(rotatedDiscordance(places([0, 1, 2]), 3)).toBe(0);
  });

  it('count the function words only one text has', () => {
    const kind = new Set([1, 2]);
    expect(wordsDiffer(Int32Array.from([1, 5, 2]), Int32Array.from([2, 5, 1]), kind)).toBe(0);
    expect(wordsDiffer(Int32Array.from([1, 5]), Int32Array.from([5, 1, 2]), kind)).toBe(0.5);
    expect(wordsDiffer(Int32Array.from([5]), Int32Array.from([6]), kind)).toBe(0);
  });
});
