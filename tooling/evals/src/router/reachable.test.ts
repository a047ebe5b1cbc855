import { describe, expect, it } from 'vitest';
import { reach, unitsOf } from './reachable.js';

/** Two kinds of 10 requests: on `even` both models answer 8 right; on `hard` the strong 10, the weak 5. The weak costs a tenth. */
const rows = [
  ...Array.from({ length: 10 }, (_, i) => ({ kind: 'even', strong: i < 8, weak: i < 8 })),
  ...Array.from({ length: 10 }, (_, i) => ({ kind: 'hard', strong: true, weak: i < 5 })),
];
const outcome = (r: (typeof rows)[number]) => ({ strong: r.strong, weak: r.weak, strongCost: 1, weakCost: 0.1 });

describe('reach', () => {
  it('puts each kind on the better model (the cheaper on a tie), then moves what the quality floor allows', () => {
    const units = unitsOf(rows, (r) => r.kind, outcome);
    const { oracle, atFloor } = reach(units, 0.9);
    expect(oracle.quality).toBe(1);
    expect(oracle.cost).toBeCloseTo((10 * 0.1 + 10) / 20, 10);
    // 18 right of 18; the floor allows losing 1.8: 1.8 / 5 of the hard kind moves, saving 0.36 x 9.
    expect(atFloor.quality).toBeCloseTo(0.9, 10);
    expect(atFloor.cost).toBeCloseTo((11 - 0.36 * 9) / 20, 10);
  });

  it('per prompt, knowing every answer: the weak model wherever it is right or both are wrong', () => {
    const { oracle } = reach(unitsOf(rows, (_, i) => String(i), outcome), 0.98);
    // Only the 5 hard prompts the weak model misses stay on the strong one.
    expect(oracle.cost).toBeCloseTo((15 * 0.1 + 5) / 20, 10);
  });
});
