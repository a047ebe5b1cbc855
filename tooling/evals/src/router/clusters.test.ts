import { describe, expect, it } from 'vitest';
import { nearest, sphericalKMeans } from './clusters.js';

const unit = (...xs: number[]) => {
  const norm = Math.hypot(...xs);
  return Float32Array.from(xs, (x) => x / norm);
};
/** Three tight groups of unit vectors around the axes. */
const vectors = [0, 1, 2].flatMap((axis) =>
  Array.from({ length: 10 }, (_, i) => unit(...[0, 1, 2].map((d) => (d === axis ? 1 : 0.05 * ((i % 3) - 1) * (d === (axis + 1) % 3 ? 1 : -1))))),
);

describe('sphericalKMeans', () => {
  it('finds the three groups: members of a group share a cluster, groups do not', () => {
    const ids = nearest(vectors, sphericalKMeans(vectors, { k: 3, seed: 7 }));
    const byGroup = [0, 1, 2].map((g) => new Set(ids.slice(10 * g, 10 * g + 10)));
    expect(byGroup.every((s) => s.size === 1)).toBe(true);
    expect(new Set(byGroup.map((s) => [...s][0])).size).toBe(3);
  });

  it('is deterministic for a seed, and its centroids are unit vectors', () => {
    const a = sphericalKMeans(vectors, { k: 4, seed: 3 });
    const b = sphericalKMeans(vectors, { k: 4, seed: 3 });
    expect(a).toEqual(b);
    for (const c of a) expect(Math.hypot(...c)).toBeCloseTo(1, 5);
  });

  it('rejects k outside 1..n', () => {
    expect(() => sphericalKMeans(vectors, { k: 0, seed: 1 })).toThrow(RangeError);
    expect(() => sphericalKMeans(vectors, { k: 31, seed: 1 })).toThrow(RangeError);
  });
});

describe('nearest', () => {
  it('takes the largest dot product, the lowest index on a tie', () => {
    const centroids = [unit(1, 0), unit(0, 1), unit(1, 0)];
    expect([...nearest([unit(1, 0.1), unit(0.1, 1), unit(1, 1)], centroids)]).toEqual([0, 1, 0]);
  });
});
