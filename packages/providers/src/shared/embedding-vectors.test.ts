import { describe, expect, it } from 'vitest';
import { decodeFloat32Base64, readFloat32Vector } from './embedding-vectors.js';

describe('embedding vectors', () => {
  it('decodes little-endian float32 base64 to the same values as the float array', () => {
    const values = [0.0123, -0.0456, 0.789, -0.25, 1e-8, -3.5e7];
    const bytes = Buffer.alloc(values.length * 4);
    for (const [i, value] of values.entries()) bytes.writeFloatLE(value, i * 4);
    const decoded = decodeFloat32Base64(bytes.toString('base64'));
    expect(decoded).toEqual(Float32Array.from(values));
    expect(readFloat32Vector(values)).toEqual(decoded);
  });

  it('refuses base64 that is not whole float32 values, and arrays of non-numbers', () => {
    expect(decodeFloat32Base64(Buffer.from([1, 2, 3]).toString('base64'))).toBeUndefined();
    expect(decodeFloat32Base64('@@@@@@@@')).toBeUndefined();
    expect(readFloat32Vector([1, '2'])).toBeUndefined();
    expect(readFloat32Vector({ float: [1] })).toBeUndefined();
    expect(decodeFloat32Base64('')).toEqual(new Float32Array(0));
  });
});
