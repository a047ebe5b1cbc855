import { describe, expect, it } from 'vitest';
import { createRouter } from './router.js';
import { modePresets } from './preferences.js';
import { LATENCY_FULL_RATIO } from './score.js';
import { ask, fixtureCatalog } from './test/fixture-catalog.js';

const strong = 'acme/sonnet';
const weak = 'acme/mini';
const wl = modePresets.auto.latency;

/** Score of the strong candidate minus the weak one's for one prompt, the two models at these latencies (ms). */
function gap(strongMs: number, weakMs: number): number {
  const router = createRouter({ catalog: fixtureCatalog() });
  const latency: Record<string, number> = { [strong]: strongMs, [weak]: weakMs };
  const decision = router.route(ask('Summarise the causes of the First World War in three paragraphs.'), { candidates: [strong, weak], latencyMs: (id) => latency[id] });
  const score = (id: string) => decision.candidates.find((c) => c.id === id)?.score ?? Number.NaN;
  return score(strong) - score(weak);
}

describe('the latency term', () => {
  it('gives a 10% lead a small share of the latency weight, not all of it', () => {
    // Which of the two is a little faster swung the gap by 2 wl (0.5 under auto) on the candidates' own span.
    const swing = gap(200, 220) - gap(220, 200);
    expect(swing).toBeGreaterThan(0);
    expect(swing).toBeLessThan(0.1 * wl);
  });

  it('weighs a 10x lead fully and the same anywhere on the range, and no more past it', () => {
    const even = gap(300, 300);
    expect(even - gap(1000, 100)).toBeCloseTo(wl, 2);
    expect(even - gap(10_000, 1000)).toBeCloseTo(wl, 2);
    expect(even - gap(100 * LATENCY_FULL_RATIO * 10, 100)).toBeCloseTo(wl, 2);
    // The tiers' default figures (T1 1500, T3 200 ms) keep most of it.
    expect((even - gap(1500, 200)) / wl).toBeCloseTo(Math.log(1501 / 201) / Math.log(LATENCY_FULL_RATIO), 3);
  });
});
