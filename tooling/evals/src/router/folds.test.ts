import { describe, expect, it } from 'vitest';
import type { Item } from './data.js';
import { folds, promptFold, split } from './folds.js';

const item = (source: string, n: number): Item => ({ source, group: 'g', subject: 'g', prompt: `${source} ${n}`, correct: {} });

describe('promptFold', () => {
  it('holds out every fifth prompt of each source, counted within the source, and trains on the rest', () => {
    const items = [...Array.from({ length: 10 }, (_, n) => item('a', n)), ...Array.from({ length: 7 }, (_, n) => item('b', n))];
    const vectors = items.map(() => new Float32Array(1));
    const { dev, train } = split(items, vectors, promptFold(items, 2));
    expect(dev.map((i) => i.prompt)).toEqual(['a 2', 'a 7', 'b 2']);
    expect(train).toHaveLength(items.length - 3);
  });

  it('puts every prompt in exactly one fold', () => {
    const items = Array.from({ length: 23 }, (_, n) => item(n % 2 ? 'a' : 'b', n));
    const counts = Array.from({ length: folds }, (_, f) => items.filter(promptFold(items, f).heldOut).length);
    expect(counts.reduce((s, c) => s + c, 0)).toBe(items.length);
  });
});
