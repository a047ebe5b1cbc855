import { describe, expect, it } from 'vitest';
import { evaluateGate, type GateSettings, gateWindows, type OutcomeStats } from './gate.js';

const day = 86_400_000;
const settings: GateSettings = { baselineDays: 7, minDecisions: 10, maxSuccessRateDrop: 0.02, maxFallbackRateIncrease: 0.05, maxLatencyIncrease: 0.25, maxJudgedQualityDrop: 0.05, minJudgedPairs: 20 };
const stats = (overrides: Partial<OutcomeStats> = {}): OutcomeStats => ({ decisions: 100, succeeded: 98, failed: 2, fallbacks: 5, latencyP50Ms: 400, latencyP95Ms: 1000, ...overrides });
const [window] = gateWindows(new Date('2025-05-10T12:00:00Z'), 1, 7);

describe('gateWindows', () => {
  it('lists 24-hour windows newest first, each with the baseline right before it', () => {
    const now = new Date('2025-05-10T12:00:00Z');
    const windows = gateWindows(now, 3, 7);
    expect(windows.map((w) => [w.day.since.toISOString(), w.day.until.toISOString()])).toEqual([
      ['2025-05-09T12:00:00.000Z', '2025-05-10T12:00:00.000Z'],
      ['2025-05-08T12:00:00.000Z', '2025-05-09T12:00:00.000Z'],
      ['2025-05-07T12:00:00.000Z', '2025-05-08T12:00:00.000Z'],
    ]);
    expect(windows[0]!.baseline).toEqual({ since: new Date(now.getTime() - 8 * day), until: new Date(now.getTime() - day) });
    expect(gateWindows(now, 0, 7)).toEqual([]);
  });
});

describe('evaluateGate', () => {
  it('passes when every figure stays within its tolerance of the baseline', () => {
    const result = evaluateGate(window!, stats({ succeeded: 96, failed: 4, fallbacks: 10, latencyP50Ms: 500, latencyP95Ms: 1250 }), stats(), settings);
    expect(result.status).toBe('pass');
    expect(result.checks.map((c) => [c.check, c.status])).toEqual([
      ['success_rate', 'pass'],
      ['fallback_rate', 'pass'],
      ['p50_latency_ms', 'pass'],
      ['p95_latency_ms', 'pass'],
    ]);
    expect(result.checks[0]).toMatchObject({ current: 0.96, baseline: 0.98, direction: 'at_least' });
    expect(result.checks[0]!.limit).toBeCloseTo(0.96, 12);
    expect(result.checks[2]).toEqual({ check: 'p50_latency_ms', status: 'pass', current: 500, baseline: 400, limit: 500, direction: 'at_most' });
    expect(result).toMatchObject({
      start: '2025-05-09T12:00:00.000Z',
      end: '2025-05-10T12:00:00.000Z',
      baseline_start: '2025-05-02T12:00:00.000Z',
      baseline_end: '2025-05-09T12:00:00.000Z',
      current: { decisions: 100, success_rate: 0.96, fallback_rate: 0.1, p50_latency_ms: 500, p95_latency_ms: 1250 },
    });
  });

  it('fails each check that leaves its tolerance, and the day with it', () => {
    const result = evaluateGate(window!, stats({ succeeded: 95, failed: 5, fallbacks: 11, latencyP50Ms: 501, latencyP95Ms: 900 }), stats(), settings);
    expect(result.status).toBe('fail');
    expect(result.checks.map((c) => c.status)).toEqual(['fail', 'fail', 'fail', 'pass']);
  });

  it('is insufficient_data below the minimum decisions on either side, every check skipped', () => {
    for (const [current, baseline] of [
      [stats({ decisions: 9 }), stats()],
      [stats(), stats({ decisions: 0, succeeded: 0, failed: 0, fallbacks: 0, latencyP50Ms: null, latencyP95Ms: null })],
    ] as const) {
      const result = evaluateGate(window!, current, baseline, settings);
      expect(result.status).toBe('insufficient_data');
      expect(result.checks.every((c) => c.status === 'skipped')).toBe(true);
    }
  });

  it('skips a check without a figure on one side (no succeeded decisions: no latency)', () => {
    const result = evaluateGate(window!, stats({ succeeded: 0, failed: 100, latencyP50Ms: null, latencyP95Ms: null }), stats(), settings);
    expect(result.checks.map((c) => c.status)).toEqual(['fail', 'pass', 'skipped', 'skipped']);
    expect(result.status).toBe('fail');
  });
});
