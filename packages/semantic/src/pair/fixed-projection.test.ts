import { describe, expect, it } from 'vitest';
import { fixedProjection, projectRows } from './fixed-projection.js';

const D = 384;
const unit = (seed: number) => {
  const row = Float32Array.from({ length: D }, (_, k) => Math.sin(seed * 7.1 + k * 0.37) + Math.cos(k * seed * 0.11));
  const norm = Math.hypot(...row);
  return row.map((x) => x / norm);
};
const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, k) => s + x * b[k]!, 0);

describe('fixed projection', () => {
  it('is the same matrix for the same seed and another for another', () => {
    expect(fixedProjection(D, 8)).toEqual(fixedProjection(D, 8));
    expect(fixedProjection(D, 8, 1)).not.toEqual(fixedProjection(D, 8, 2));
  });

  it('keeps rows of unit length and cosines near the raw ones', () => {
    const k = 128;
    const matrix = fixedProjection(D, k);
    const rows = [unit(1), unit(2), unit(3)];
    const projected = rows.map((r) => projectRows(r, matrix, D, k));
    for (const p of projected) expect(dot(p, p)).toBeCloseTo(1, 5);
    expect(dot(projected[0]!, projected[0]!)).toBeCloseTo(dot(rows[0]!, rows[0]!), 5);
    expect(Math.abs(dot(projected[0]!, projected[1]!) - dot(rows[0]!, rows[1]!))).toBeLessThan(0.3);
  });
});
