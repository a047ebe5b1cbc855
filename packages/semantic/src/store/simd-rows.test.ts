import { describe, expect, it, vi } from 'vitest';
import { MemoryPartition, SIMD_MIN_ROWS } from './memory-partition.js';
import { SimdRows, simdMemoryBytes } from './simd-rows.js';

/** Deterministic unit vectors: a shared direction plus noise, so many rows sit close to a query. */
function vectors(count: number, d: number, seed: number, noise = 0.3, sparse = false): Float32Array[] {
  let state = seed;
  const next = () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state / 2 ** 32 - 0.5;
  };
  const base = Float32Array.from({ length: d }, next);
  return Array.from({ length: count }, () => {
    // Sparse: three coordinates in four zero, as the hashed embedder's vectors are (the sparse scan).
    const v = base.map((x, i) => (sparse && i % 4 !== 0 ? 0 : x + noise * next()));
    const norm = Math.hypot(...v);
    return v.map((x) => x / norm);
  });
}

const dot = (a: Float32Array, b: Float32Array) => a.reduce((sum, x, i) => sum + x * b[i]!, 0);

describe('SimdRows', () => {
  it('scores every row like a scalar dot product, across growth and moves', () => {
    const d = 384;
    const rows = vectors(300, d, 7);
    const [query] = vectors(1, d, 8);
    const simd = SimdRows.create(d, 16)!;
    expect(simd).toBeDefined();
    rows.forEach((row, i) => {
      simd.reserve(i + 1);
      simd.set(i, row);
    });
    simd.move(299, 3); // row 3 now holds row 299
    const out = new Float32Array(299);
    simd.scores(query!, 299, out);
    for (let i = 0; i < 299; i++) expect(out[i]).toBeCloseTo(dot(query!, rows[i === 3 ? 299 : i]!), 5);
  });

  it('counts the WebAssembly memory it holds, growth included', () => {
    const before = simdMemoryBytes();
    const simd = SimdRows.create(384, 1000)!;
    expect(simdMemoryBytes() - before).toBeGreaterThanOrEqual(4 * 384 * 1001);
    simd.reserve(5000);
    expect(simdMemoryBytes() - before).toBeGreaterThanOrEqual(4 * 384 * 5001);
  });

  it('is not made for vectors whose length is not a multiple of 8 (the scan takes 8 lanes a step)', () => {
    expect(SimdRows.create(12, 4)).toBeUndefined();
  });
});

describe('MemoryPartition past SIMD_MIN_ROWS', () => {
  // Noise 0.3: most rows under a high floor (the sign sketch skips them); 0.1: nearly all above it
  // (the sketch lets most through, each scored by the SIMD scan); sparse: the sparse scan over the
  // rows in WebAssembly memory.
  it.each([
    { noise: 0.3, sparse: false, path: 'scores' },
    { noise: 0.1, sparse: false, path: 'scoresOf' },
    { noise: 0.3, sparse: true, path: 'rows' },
  ] as const)('finds the same best rows as a brute-force scan, before and after deletions (%o)', ({ noise, sparse, path }) => {
    const d = 384;
    const scan = vi.spyOn(SimdRows.prototype, path);
    const rows = vectors(SIMD_MIN_ROWS + 200, d, 11, noise, sparse);
    const partition = new MemoryPartition(d);
    for (const [i, unit] of rows.entries()) partition.set({ id: `r${i}`, payload: { orgId: 'o', scope: 's', expiresAt: Infinity, text: `r${i}`, answer: {} as never } }, unit);
    for (let i = 0; i < 300; i += 3) partition.delete(`r${i}`);
    const live = rows.map((unit, i) => ({ id: `r${i}`, unit })).filter((_, i) => !(i < 300 && i % 3 === 0));
    for (const query of vectors(5, d, 12, noise, sparse)) {
      const expected = live
        .map(({ id, unit }) => ({ id, score: dot(query, unit) }))
        .sort((a, b) => b.score - a.score)
        .slice(0, 10);
      for (const floor of [-1, 0.6, 0.85]) {
        const found = partition.search(query, 10, floor, () => true);
        const wanted = expected.filter((e) => e.score >= floor);
        expect(found.map((m) => m.entry.id)).toEqual(wanted.map((e) => e.id));
        for (const [i, m] of found.entries()) expect(m.score).toBeCloseTo(wanted[i]!.score, 5);
      }
    }
    expect(scan).toHaveBeenCalled();
    scan.mockRestore();
  });
});
