import { describe, expect, it } from 'vitest';
import { judgedTallies, learnerShares, type Outcome, pathAtFloor, simpleShares, unitsById } from './held-out-reach.js';

/** Unit 0: both models right on all 10. Unit 1: the strong right on 10, the weak on 5. */
const outcomes: Outcome[] = [...Array.from({ length: 10 }, () => ({ strong: true, weak: true })), ...Array.from({ length: 10 }, (_, i) => ({ strong: true, weak: i < 5 }))];
const ids = Int32Array.from(outcomes, (_, i) => (i < 10 ? 0 : 1));

describe('unitsById', () => {
  it('tallies each unit, an id with no prompt left empty', () => {
    const units = unitsById(outcomes, ids, 3, 0.5);
    expect(units[1]).toEqual({ n: 10, strongRight: 10, weakRight: 5, strongCost: 10, weakCost: 5 });
    expect(units[2]!.n).toBe(0);
  });
});

describe('pathAtFloor', () => {
  it("moves the other half's units in the fitting half's order and stops where its quality meets the floor", () => {
    const units = unitsById(outcomes, ids, 2, 0.1);
    // Unit 0 moves whole (no loss); of unit 1, the floor 0.9 allows losing 2 of 20: 2 / 5 of it.
    const at = pathAtFloor(units, units, 0.9);
    expect(at.quality).toBeCloseTo(0.9, 10);
    expect(at.cost).toBeCloseTo((1 + 10 - 0.4 * 9) / 20, 10);
  });

  it('follows the fitting order even when the other half disagrees', () => {
    const fit = unitsById(outcomes, ids, 2, 0.1);
    const other = unitsById(outcomes, Int32Array.from(ids, (u) => 1 - u), 2, 0.1);
    // The fitting half moves unit 0 first, which on the other half loses 5 of 20: past a 0.9 floor.
    expect(pathAtFloor(fit, other, 0.9).cost).toBeCloseTo((20 - 0.4 * 9) / 20, 10);
  });
});

describe('judgedTallies', () => {
  it('reads the truth with no flips, and repeats for a seed', () => {
    const t = judgedTallies(outcomes, ids, 2, { pairs: 200, flip: 0, seed: 5 });
    expect(t[0]!.wins + t[0]!.losses).toBe(0);
    expect(t[1]!.wins).toBe(0);
    expect(t[0]!.ties + t[1]!.ties + t[1]!.losses).toBe(200);
    expect(judgedTallies(outcomes, ids, 2, { pairs: 200, flip: 0.15, seed: 5 })).toEqual(judgedTallies(outcomes, ids, 2, { pairs: 200, flip: 0.15, seed: 5 }));
  });
});

describe('moving a unit to the cheaper model', () => {
  const tallies = [
    { wins: 0, losses: 0, ties: 400 },
    { wins: 0, losses: 100, ties: 100 },
    { wins: 0, losses: 0, ties: 10 },
  ];
  const rule = { tolerance: 0.05, judgeError: 0 };
  it('the learner moves an all-tie kind, not a losing one nor one under 20 pairs', () => {
    expect(learnerShares(tallies, rule, 0.1)).toEqual([1, 0, 0]);
  });
  it('the fixed-n bound does the same; the point estimate too', () => {
    expect(simpleShares(tallies, rule, 1.645)).toEqual([1, 0, 0]);
    expect(simpleShares(tallies, rule, 0)).toEqual([1, 0, 0]);
  });
  it('the bound refuses a win rate just over the bar that the point estimate takes', () => {
    const near = [{ wins: 10, losses: 12, ties: 20 }];
    expect(simpleShares(near, rule, 0)).toEqual([1]);
    expect(simpleShares(near, rule, 1.645)).toEqual([0]);
  });
});
