import { describe, expect, it } from 'vitest';
import { groupBySource, onePerSource, type PawsPair, splitBySource } from './paws.js';

const pair = (a: string, b: string, duplicate = false): PawsPair => ({ a, b, duplicate });

describe('PAWS by source sentence', () => {
  // Two sources: s1 with its swap and back-translation (linked through shared sentences), s2 alone.
  const pairs = [pair('s1', 's1-swap'), pair('s2', 's2-bt', true), pair('s1-swap', 's1-bt', true), pair('s1', 's1-bt')];

  it('groups pairs linked through any shared sentence', () => {
    expect(groupBySource(pairs).map((g) => g.length)).toEqual([3, 1]);
  });

  it('never puts one source on both sides of the split', () => {
    const many = Array.from({ length: 200 }, (_, i) => [pair(`x${i}`, `x${i}-swap`), pair(`x${i}-swap`, `x${i}-bt`, true)]).flat();
    const { train, heldOut } = splitBySource(many);
    const sides = new Set(train.flatMap((p) => [p.a, p.b]));
    expect(heldOut.some((p) => sides.has(p.a) || sides.has(p.b))).toBe(false);
    expect(train.length).toBeGreaterThan(100);
    expect(heldOut.length).toBeGreaterThan(100);
  });

  it('asks one pair per source, the same one whatever the file order', () => {
    const one = onePerSource(pairs);
    expect(one).toHaveLength(2);
    expect(onePerSource([...pairs].reverse()).map((p) => p.a).sort()).toEqual(one.map((p) => p.a).sort());
  });
});
