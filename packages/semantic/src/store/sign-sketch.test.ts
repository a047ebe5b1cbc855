import { seededRandom } from '@svc/core';
import { describe, expect, it } from 'vitest';
import { MemoryPartition } from './memory-partition.js';
import { SignSketch } from './sign-sketch.js';

/** A deterministic generator, so a failure reproduces. */
const random = seededRandom;

function unit(values: Float32Array): Float32Array {
  const norm = Math.hypot(...values);
  return values.map((x) => x / norm);
}

/** A unit vector at cosine about `cosine` to `base` (base tilted along a random direction). */
function near(base: Float32Array, cosine: number, next: () => number): Float32Array {
  const noise = unit(base.map(() => next() - 0.5));
  const sin = Math.sqrt(1 - cosine * cosine);
  return unit(base.map((x, i) => cosine * x + sin * noise[i]!));
}

/** A partition of `count` random unit rows of `d` dimensions, ids `r0`, `r1`, ... */
function filled(count: number, d: number, next: () => number): { rows: Float32Array[]; partition: MemoryPartition } {
  const rows = Array.from({ length: count }, () => unit(Float32Array.from({ length: d }, () => next() - 0.5)));
  const partition = new MemoryPartition(d);
  for (const [i, row] of rows.entries()) partition.set({ id: `r${i}`, payload: {} as never }, row);
  return { rows, partition };
}

describe('SignSketch, the pre-filter of dense searches', () => {
  it('applies only to long vectors and high floors', () => {
    expect(new SignSketch(64, 1).cutoff(0.95)).toBeUndefined();
    expect(new SignSketch(384, 1).cutoff(0.3)).toBeUndefined();
    expect(new SignSketch(384, 1).cutoff(0.9)).toBeGreaterThan(0);
  });

  it('returns exactly what a plain scan returns at a high floor (384 dimensions, 2,000 rows, neighbours near the floor)', () => {
    const next = random(17);
    const d = 384;
    const { rows, partition } = filled(2000, d, next);
    for (let q = 0; q < 50; q++) {
      const target = rows[q * 7]!;
      const query = near(target, 0.86 + (q % 10) / 100, next);
      const expected = rows
        .map((row, i) => ({ id: `r${i}`, score: row.reduce((s, x, k) => s + x * query[k]!, 0) }))
        .filter((m) => m.score >= 0.85)
        .sort((a, b) => b.score - a.score)
        .slice(0, 3);
      const found = partition.search(query, 3, 0.85, () => true).map((m) => ({ id: m.entry.id, score: m.score }));
      expect(found.map((m) => m.id)).toEqual(expected.map((m) => m.id));
    }
  });

  it('keeps its bits with their rows when a row is deleted (the last row moves into the hole)', () => {
    const next = random(5);
    const d = 384;
    const { rows, partition } = filled(40, d, next);
    partition.delete('r3');
    expect(partition.search(rows[39]!, 1, 0.9, () => true)[0]?.entry.id).toBe('r39');
    expect(partition.search(rows[3]!, 1, 0.9, () => true)).toEqual([]);
  });
});
