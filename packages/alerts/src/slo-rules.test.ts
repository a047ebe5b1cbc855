import { describe, expect, it } from 'vitest';
import { describeSlo, judgeSlo, thresholdAllowed, thresholdRange } from './slo-rules.js';

const window = { since: new Date('2025-01-01T00:00:00Z'), until: new Date('2025-01-08T00:00:00Z') };

describe('judgeSlo', () => {
  it('is met while the share of good hours reaches the target, breached below it', () => {
    expect(judgeSlo({ target: 0.9 }, { ...window, slices: 10, goodSlices: 9, value: 0.97 })).toMatchObject({
      status: 'met',
      compliance: 0.9,
      value: 0.97,
      errorBudgetRemainingHours: 0,
      windowStart: window.since,
      windowEnd: window.until,
    });
    expect(judgeSlo({ target: 0.9 }, { ...window, slices: 10, goodSlices: 8, value: 0.9 })).toMatchObject({ status: 'breached', compliance: 0.8, errorBudgetRemainingHours: -1 });
    expect(judgeSlo({ target: 0.5 }, { ...window, slices: 4, goodSlices: 4, value: 1 })).toMatchObject({ status: 'met', errorBudgetRemainingHours: 2 });
  });

  it('does not turn a met target into a breach by float error, and a target of 1 allows no bad hour', () => {
    expect(judgeSlo({ target: 0.99 }, { ...window, slices: 100, goodSlices: 99, value: 1 }).status).toBe('met');
    expect(judgeSlo({ target: 1 }, { ...window, slices: 3, goodSlices: 2, value: 1 })).toMatchObject({ status: 'breached', errorBudgetRemainingHours: -1 });
  });

  it('has no data (and cannot be breached) without traffic', () => {
    expect(judgeSlo({ target: 0.99 }, { ...window, slices: 0, goodSlices: 0, value: null })).toMatchObject({ status: 'no_data', compliance: null, value: null, errorBudgetRemainingHours: null });
  });
});

describe('thresholds', () => {
  it('rates are 0..1, latencies (0, 600000] ms, cost 0..100 USD', () => {
    expect(thresholdRange('availability')).toEqual({ min: 0, max: 1, minExclusive: false, unit: 'ratio' });
    expect(thresholdRange('latency_p99_ms')).toMatchObject({ unit: 'ms', minExclusive: true });
    expect(thresholdAllowed('error_rate', 0)).toBe(true);
    expect(thresholdAllowed('error_rate', 1.01)).toBe(false);
    expect(thresholdAllowed('latency_p95_ms', 0)).toBe(false);
    expect(thresholdAllowed('latency_p95_ms', 600_000)).toBe(true);
    expect(thresholdAllowed('latency_p95_ms', 600_001)).toBe(false);
    expect(thresholdAllowed('cost_per_request_usd', -0.01)).toBe(false);
    expect(thresholdAllowed('cost_per_request_usd', Number.NaN)).toBe(false);
  });

  it('describes an SLO in words', () => {
    expect(describeSlo({ metric: 'latency_p95_ms', threshold: 2000, target: 0.99, windowDays: 30 })).toBe('p95 latency (ms) at most 2000 in 99% of hours over 30 days');
    expect(describeSlo({ metric: 'availability', threshold: 0.999, target: 0.95, windowDays: 1 })).toBe('availability at least 0.999 in 95% of hours over 1 day');
  });
});
