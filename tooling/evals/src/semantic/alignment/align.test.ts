import { describe, expect, it } from 'vitest';
import { align, selectTokens } from './align.js';

const D = 384;
const unit = (axis: number) => {
  const v = new Float32Array(D);
  v[axis] = 1;
  return v;
};
const side = (...axes: number[]) => {
  const states = new Float32Array(axes.length * D);
  for (const [i, a] of axes.entries()) states.set(unit(a), i * D);
  return { states, weights: new Float64Array(axes.length).fill(1) };
};

describe('greedy token alignment', () => {
  it('scores a paraphrase with the same tokens 1 on both sides', () => {
    expect(align(side(1, 2, 3), side(3, 2, 1))).toEqual({ precision: 1, recall: 1, f1: 1, min: 1, worst: 1 });
  });

  it('loses precision when the asked question adds a token and recall when it drops one', () => {
    const added = align(side(1, 2, 3, 4), side(1, 2, 3));
    expect(added.precision).toBeCloseTo(0.75);
    expect(added.recall).toBeCloseTo(1);
    const dropped = align(side(1, 2), side(1, 2, 3, 4));
    expect(dropped.precision).toBeCloseTo(1);
    expect(dropped.recall).toBeCloseTo(0.5);
    expect(dropped.min).toBeCloseTo(0.5);
    expect(dropped.worst).toBeCloseTo(0);
  });

  it('weights tokens (IDF) and selects the kept ones', () => {
    const asked = { ...side(1, 2, 9), weights: Float64Array.from([1, 1, 2]) };
    expect(align(asked, side(1, 2)).precision).toBeCloseTo(0.5);
    const kept = selectTokens(side(1, 2, 9).states, [1, 1, 2], [true, true, false]);
    expect(align(kept, side(1, 2)).precision).toBeCloseTo(1);
  });
});
