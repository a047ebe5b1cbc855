import { describe, expect, it } from 'vitest';
import { contextFeatures, contextRows } from './context-features.js';

const lex = { relations: new Set([7]), other: new Set<number>() };
/** Features of `ids` whose first `skip` numbers are the pair model's and the rest the context's. */
function features(ids: number[], rows: number[][], skip: number) {
  const dimensions = skip + rows[0]!.length;
  return { count: ids.length, dimensions, ids: Int32Array.from(ids), values: Float32Array.from(rows.flatMap((r) => [...new Array<number>(skip).fill(9), ...r])) };
}

describe('contextRows', () => {
  it('reads the columns after the pair model numbers, each of unit length', () => {
    const rows = contextRows(features([20, 21], [[3, 4], [0, 2]], 3), 3);
    expect(rows.d).toBe(2);
    expect([...rows.states].map((x) => Number(x.toFixed(5)))).toEqual([0.6, 0.8, 0, 1]);
    expect(rows.rows).toEqual([0, 1]);
  });

  it('gives the contextual features of stored features as of the trainer rows', () => {
    const a = contextRows(features([20, 7, 30], [[1, 0], [0, 1], [0, 1]], 2), 2);
    const b = contextRows(features([20, 7, 31], [[0, 1], [0, 1], [0.6, 0.8]], 2), 2);
    const [min, mean, replacedMin, replacedMean, unrelated] = contextFeatures(a, b, lex);
    expect([min, mean]).toEqual([0, 0]);
    expect(replacedMin).toBeCloseTo(0.8);
    expect(replacedMean).toBeCloseTo(0.8);
    expect(unrelated).toBe(0);
  });
});
