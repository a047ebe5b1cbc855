import { describe, expect, it } from 'vitest';
import { randomMetrics } from './api-eval.js';
import type { Row } from './metrics.js';

/** `n` rows of which `strongOnly` only the strong model gets right and `weakOnly` only the weak one. */
function rows(n: number, strongOnly: number, weakOnly: number): Row[] {
  return Array.from({ length: n }, (_, i) => ({ strong: i < strongOnly || i >= strongOnly + weakOnly, weak: i >= strongOnly }));
}

describe('randomMetrics', () => {
  it('gives the spread of one random order: small for a wide gap, large when the two models are close', () => {
    const prices = { strong: 10, weak: 1 };
    const wide = randomMetrics(rows(300, 100, 10), prices);
    const close = randomMetrics(rows(300, 46, 36), prices);
    expect(wide.apgr).toBeGreaterThan(0.4);
    expect(wide.apgr).toBeLessThan(0.6);
    expect(wide.apgrSd).toBeGreaterThan(0);
    expect(wide.apgrSd).toBeLessThan(0.06);
    expect(close.apgrSd).toBeGreaterThan(4 * wide.apgrSd);
  });
});
