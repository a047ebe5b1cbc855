import { describe, expect, it } from 'vitest';
import { canonicalEncoding } from './canonical-encoding.js';

describe('canonicalEncoding', () => {
  it('encodes keys in one order at every depth', () => {
    const a = { b: [{ y: 1, x: 2 }, 3], a: { d: null, c: 'é"\n' } };
    const b = { a: { c: 'é"\n', d: null }, b: [{ x: 2, y: 1 }, 3] };
    expect(canonicalEncoding(b)).toBe(canonicalEncoding(a));
  });

  it.each([
    ['array order', ['a', 'b'], ['b', 'a']],
    ['string boundaries', ['ab', 'c'], ['a', 'bc']],
    ['a key inside a string', { a: 's1:b' }, { a: '', b: '' }],
    ['type of a scalar', { a: '1' }, { a: 1 }],
    ['true and "t"', [true], ['t']],
    ['null and undefined in arrays', [null], [undefined]],
    ['nesting', [[1], 2], [[1, 2]]],
    ['number boundaries', [1, 23], [12, 3]],
    ['an empty object and an empty array', {}, []],
  ])('tells values apart: %s', (_name, left, right) => {
    expect(canonicalEncoding(left)).not.toBe(canonicalEncoding(right));
  });

  it('leaves out undefined members', () => {
    expect(canonicalEncoding({ a: 1, b: undefined })).toBe(canonicalEncoding({ a: 1 }));
  });

  it('keeps a __proto__ member of parsed JSON', () => {
    const parsed: unknown = JSON.parse('{"__proto__":{"x":1},"a":1}');
    expect(canonicalEncoding(parsed)).not.toBe(canonicalEncoding({ a: 1 }));
  });
});
