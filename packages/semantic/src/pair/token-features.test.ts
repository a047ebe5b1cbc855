import { seededRandom } from '@svc/core';
import { describe, expect, it } from 'vitest';
import { decodeTokenFeatures, encodeTokenFeatures, packStoredFeatures, type TokenFeatures, unpackStoredFeatures } from './token-features.js';

/** Role model v3's shape: per word piece the pair model's 32 numbers, then 64 of the fixed projection on another scale. */
function v3Features(count: number, seed = 1): TokenFeatures {
  const next = seededRandom(seed);
  const gauss = () => Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());
  const values = Float32Array.from({ length: count * 96 }, (_, i) => gauss() * (i % 96 < 32 ? 3 : 0.08));
  return { count, dimensions: 96, ids: Int32Array.from({ length: count }, (_, t) => (t * 7919) % 30_522), values };
}

/** The cosine of word piece t's columns [from, to) in two feature sets. */
function blockCosine(a: TokenFeatures, b: TokenFeatures, t: number, from: number, to: number): number {
  let [dot, na, nb] = [0, 0, 0];
  for (let k = from; k < to; k++) {
    const [x, y] = [a.values[t * a.dimensions + k]!, b.values[t * b.dimensions + k]!];
    [dot, na, nb] = [dot + x * y, na + x * x, nb + y * y];
  }
  return na * nb > 0 ? dot / Math.sqrt(na * nb) : 0;
}

describe('stored features at 4 bits', () => {
  it('keep the ids exactly and each block of each word piece within a cosine of 0.98, in half the bytes of int8', () => {
    const f = v3Features(20);
    const packed = packStoredFeatures(f, [0, 32]);
    const back = unpackStoredFeatures(packed, 96)!;
    expect(back.ids).toEqual(f.ids);
    expect(back.count).toBe(20);
    for (let t = 0; t < 20; t++) {
      expect(blockCosine(f, back, t, 0, 32)).toBeGreaterThan(0.98);
      expect(blockCosine(f, back, t, 32, 96)).toBeGreaterThan(0.98);
    }
    const bytes = Buffer.from(packed, 'base64').length;
    expect(bytes).toBeLessThanOrEqual(6 + 20 * 52 + 1);
    expect(bytes / Buffer.from(encodeTokenFeatures(f), 'base64').length).toBeLessThan(0.52);
  });

  it('keep each block on its own scale: one shared scale would leave the small block a few codes', () => {
    const f = v3Features(5);
    const shared = unpackStoredFeatures(packStoredFeatures(f, [0]), 96)!;
    const own = unpackStoredFeatures(packStoredFeatures(f, [0, 32]), 96)!;
    for (let t = 0; t < 5; t++) expect(blockCosine(f, own, t, 32, 96)).toBeGreaterThan(blockCosine(f, shared, t, 32, 96));
  });

  it('never read as the int8 packing of the releases before (odd length), nor the reverse', () => {
    for (const count of [1, 2, 45, 46, 96]) {
      const f = v3Features(count, count);
      const packed = packStoredFeatures(f, [0, 32]);
      expect(Buffer.from(packed, 'base64').length % 2).toBe(1);
      expect(decodeTokenFeatures(packed, 96)).toBeUndefined();
      expect(unpackStoredFeatures(packed, 96)?.count).toBe(count);
      expect(unpackStoredFeatures(encodeTokenFeatures(f), 96)).toBeUndefined();
    }
    expect(unpackStoredFeatures(packStoredFeatures(v3Features(3), [0, 32]), 32)).toBeUndefined();
  });

  it('a word piece of zeros stays zeros', () => {
    const f: TokenFeatures = { count: 1, dimensions: 4, ids: Int32Array.of(5), values: new Float32Array(4) };
    expect([...unpackStoredFeatures(packStoredFeatures(f), 4)!.values]).toEqual([0, 0, 0, 0]);
  });
});
