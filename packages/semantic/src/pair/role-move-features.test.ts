import { describe, expect, it } from 'vitest';
import { moveFeatures } from './role-move-features.js';

const places = (js: number[]) => js.map((j, i) => ({ i, j }));

describe('move features', () => {
  it('read two words that traded places as two moved runs of one, with nothing replaced', () => {
    // "the third line of the last verse" -> "the last line of the third verse": third, line, last, verse at 3, 1, 0, 4... of the other
    const [moved, runs, runLength, unmatched, rearrangedOnly] = moveFeatures(places([3, 1, 0, 4]), 0);
    expect(Math.expm1(moved!)).toBeCloseTo(2, 5);
    expect(Math.expm1(runs!)).toBeCloseTo(2, 5);
    expect(runLength).toBe(1);
    expect(unmatched).toBe(0);
    expect(rearrangedOnly).toBe(1);
  });

  it('read a clause moved to the front as one long run', () => {
    // "x y z when a b" -> "when a b , x y z": words 0..5 land at 4,5,6,0,1,2 of 7.
    const [moved, runs, runLength] = moveFeatures(places([4, 5, 6, 0, 1, 2]), 0);
    expect(Math.expm1(moved!)).toBeCloseTo(3, 5);
    expect(Math.expm1(runs!)).toBeCloseTo(1, 5);
    expect(runLength).toBe(3);
  });

  it('count words replaced, and nothing moved when the order is kept', () => {
    const [moved, runs, , unmatched, rearrangedOnly] = moveFeatures(places([0, 1, 3]), 2);
    expect([moved, runs, rearrangedOnly]).toEqual([0, 0, 0]);
    expect(Math.expm1(unmatched!)).toBeCloseTo(2, 5);
  });
});
