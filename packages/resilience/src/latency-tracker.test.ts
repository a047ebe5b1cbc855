import { describe, expect, it } from 'vitest';
import { LatencyTracker } from './latency-tracker.js';

describe('LatencyTracker', () => {
  it('has no hedge delay until it has seen enough samples', () => {
    const tracker = new LatencyTracker({ minSamples: 5 });
    for (let i = 0; i < 4; i++) tracker.observe('a/b', 100);
    expect(tracker.hedgeDelay('a/b')).toBeUndefined();
    tracker.observe('a/b', 100);
    expect(tracker.hedgeDelay('a/b')).toBe(100);
    expect(tracker.hedgeDelay('other/model')).toBeUndefined();
  });

  it('takes the p95 of recent samples, clamped to the configured range', () => {
    const tracker = new LatencyTracker({ minSamples: 1, minDelayMs: 10, maxDelayMs: 5000 });
    for (let i = 1; i <= 100; i++) tracker.observe('a/b', i * 10);
    expect(tracker.quantile('a/b')).toBe(950);
    expect(tracker.hedgeDelay('a/b')).toBe(950);
    for (let i = 0; i < 20; i++) tracker.observe('fast/model', 1);
    expect(tracker.hedgeDelay('fast/model')).toBe(10);
    for (let i = 0; i < 20; i++) tracker.observe('slow/model', 60_000);
    expect(tracker.hedgeDelay('slow/model')).toBe(5000);
  });

  it('follows the traffic: old samples fall out of the ring', () => {
    const tracker = new LatencyTracker({ samples: 50, minSamples: 1 });
    for (let i = 0; i < 50; i++) tracker.observe('a/b', 2000);
    expect(tracker.quantile('a/b')).toBe(2000);
    for (let i = 0; i < 50; i++) tracker.observe('a/b', 200);
    expect(tracker.quantile('a/b')).toBe(200);
    expect(tracker.snapshot()).toEqual([{ key: 'a/b', samples: 50, p50: 200, pHedge: 200 }]);
  });

  it('ignores samples that are not latencies', () => {
    const tracker = new LatencyTracker({ minSamples: 1 });
    tracker.observe('a/b', Number.NaN);
    tracker.observe('a/b', -5);
    expect(tracker.quantile('a/b')).toBeUndefined();
  });
});
