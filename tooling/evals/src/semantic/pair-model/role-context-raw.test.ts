import { describe, expect, it } from 'vitest';
import type { TokenTable } from '../alignment/token-cache.js';
import { rawContextFeatures } from './role-context-raw.js';

const D = 384;
/** A unit state pointing along axis `k` (and a little along `k2`, so two states can be near). */
function state(k: number, k2 = k, share = 0): number[] {
  const row = new Array<number>(D).fill(0);
  row[k] = Math.sqrt(1 - share * share);
  row[k2] = (row[k2] ?? 0) + share;
  return row;
}

/** A table of texts given as [id, state] pieces between [CLS] (101) and [SEP] (102). */
function table(texts: Record<string, [number, number[]][]>): TokenTable {
  const names = Object.keys(texts);
  const rows = names.map((name) => [[101, state(0)], ...texts[name]!, [102, state(0)]] as [number, number[]][]);
  return {
    texts: names,
    index: new Map(names.map((name, i) => [name, i])),
    vectors: names.map(() => new Float32Array(D)),
    ids: rows.map((r) => Int32Array.from(r.map(([id]) => id))),
    states: rows.map((r) => Float32Array.from(r.flatMap(([, s]) => s))),
  };
}

const lex = { relations: new Set([7]), other: new Set<number>() };

describe('rawContextFeatures', () => {
  it('reads the same words in the same contexts as nothing changed', () => {
    const t = table({ a: [[20, state(1)], [7, state(2)], [21, state(3)]], b: [[20, state(1)], [7, state(2)], [21, state(3)]] });
    expect(rawContextFeatures(t, 'a', 'b', lex)).toEqual([1, 1, 1, 1, 0]);
  });

  it('reads a kept word in another context, and a replaced word near or far from its counterpart', () => {
    // Word 20 keeps its id but moves to another context; 30 is replaced by 31 in a close context, then by 32 in an unrelated one.
    const t = table({ a: [[20, state(1)], [30, state(5)]], near: [[20, state(4)], [31, state(5, 6, 0.6)]], far: [[20, state(1)], [32, state(9)]] });
    const [min, mean, replacedMin, replacedMean, unrelated] = rawContextFeatures(t, 'a', 'near', lex);
    expect([min, mean]).toEqual([0, 0]);
    expect(replacedMin).toBeCloseTo(0.8);
    expect(replacedMean).toBeCloseTo(0.8);
    expect(unrelated).toBe(0);
    expect(rawContextFeatures(t, 'a', 'far', lex)).toEqual([1, 1, 0, 0, Math.log1p(2)]);
  });
});
