import { describe, expect, it } from 'vitest';
import { evaluate, rank, type Row } from './metrics.js';

const rows: Row[] = [
  { strong: true, weak: false },
  { strong: true, weak: true },
  { strong: false, weak: false },
  { strong: true, weak: false },
];
const prices = { strong: 10, weak: 1 };

describe('RouteLLM metrics', () => {
  it('an oracle ordering reaches PGR 1 after the rows where only the strong model is right', () => {
    const m = evaluate(rank(rows, [1, 0, 0, 1]), prices);
    expect(m.cpt50).toBe(0.25);
    expect(m.cpt80).toBe(0.5);
    expect(m.apgr).toBeCloseTo(0.75, 10);
  });

  it('the reverse ordering does worse than random, and saving at 95% prices the strong share', () => {
    const worst = evaluate(rank(rows, [0, 1, 1, 0]), prices);
    expect(worst.apgr).toBeLessThan(0.5);
    expect(worst.saving95).toBeCloseTo(1 - (worst.share95 * 10 + (1 - worst.share95)) / 10, 10);
  });
});
