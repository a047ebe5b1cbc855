import { describe, expect, it } from 'vitest';
import { quantiseBlocks } from './dense-weights.js';

/** `count` fp16 values (little-endian bits) of a spread of magnitudes and signs. */
function halves(count: number, seed: number): Uint8Array {
  const bytes = new Uint8Array(count * 2);
  for (let i = 0; i < count; i++) {
    // Exponents 10..20 (about 2^-5..2^5), both signs, assorted mantissas.
    const bits = (((i * 7 + seed) % 2) << 15) | ((10 + ((i * 3 + seed) % 11)) << 10) | ((i * 131 + seed * 17) % 1024);
    bytes[2 * i] = bits & 0xff;
    bytes[2 * i + 1] = bits >> 8;
  }
  return bytes;
}

describe('quantiseBlocks', () => {
  it('quantises several matrices as if their rows were stacked (the packed Q/K/V product)', () => {
    const parts = [halves(4 * 64, 1), halves(2 * 64, 2), halves(3 * 64, 3)];
    const stacked = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    parts.reduce((at, p) => {
      stacked.set(p, at);
      return at + p.length;
    }, 0);
    const packed = quantiseBlocks(parts, 9, 64, 32);
    expect(packed).toEqual(quantiseBlocks(stacked, 9, 64, 32));
    expect(packed.scales).toHaveLength(18);
  });

  it('throws when the matrices do not hold rows x columns values', () => {
    expect(() => quantiseBlocks([halves(64, 1)], 2, 64, 32)).toThrow('64 values, expected 2 x 64');
  });
});
