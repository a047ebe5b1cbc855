import { describe, expect, it } from 'vitest';
import { fakeMeasurement } from './fixtures.js';
import { type Goal, goalConnections, goalMet, goalVerdict, lightGoals } from './goals.js';
import type { Measurement } from './measure.js';
import type { TtftReport } from './ttft-bench.js';

const g = (over: Partial<Goal>): Goal => ({ goal: 'x', figure: 'y', value: 1, limit: 2, unit: '×', bound: 'most', ...over });

describe('goal verdicts', () => {
  it('says met, not measured, or missed and by how much', () => {
    expect(goalVerdict(g({ value: 1.5 }))).toBe('met');
    expect(goalVerdict(g({ value: 2 }))).toBe('met');
    expect(goalVerdict(g({ value: undefined }))).toBe('not measured');
    expect(goalVerdict(g({ value: Number.NaN }))).toBe('not measured');
    expect(goalVerdict(g({ value: 7.8, limit: 4 }))).toBe('**missed** by +95% (7.80× vs ≤ 4.00×)');
    expect(goalVerdict(g({ value: 20.3, limit: 6, unit: 'ms' }))).toBe('**missed** by +14.3 ms (20.3 ms vs ≤ 6.0 ms)');
    expect(goalVerdict(g({ value: 608, limit: 200, unit: 'MB' }))).toBe('**missed** by +408 MB (608 MB vs ≤ 200 MB)');
    expect(goalVerdict(g({ value: 2.6, limit: 4, bound: 'least' }))).toBe('**missed** by −35% (2.60× vs ≥ 4.00×)');
    expect(goalMet(g({ value: 4.5, limit: 4, bound: 'least' }))).toBe(true);
  });
});

function withLoop(m: Measurement, maxMs: number): Measurement {
  return { ...m, eventLoop: { p99Ms: maxMs / 2, maxMs, resolutionMs: 10, reading: { minMs: 10, p99Ms: 10 + maxMs / 2, maxMs: 10 + maxMs } } };
}

const summary = (p50: number) => ({ count: 80, p50, p90: p50 + 1, max: p50 + 3 });
const ttft: TtftReport = {
  requests: 80,
  upstreamLatencyMs: 1,
  skipped: [],
  rows: [
    { label: 'direct', target: 'direct', summary: summary(1.2), failed: 0, upstreamCallsPerRequest: 1 },
    { label: 'floor', target: 'floor', summary: summary(2.05), failed: 0, upstreamCallsPerRequest: 1 },
    { label: 'svc, proxy mode', target: 'svc', mode: 'proxy', summary: summary(5.2), failed: 0, upstreamCallsPerRequest: 1 },
    { label: 'svc, cache mode, unique prompts (misses)', target: 'svc', mode: 'cache', summary: summary(6.2), failed: 0, upstreamCallsPerRequest: 1 },
  ],
};

describe("issue 34's goals on a run", () => {
  const measurements = [
    fakeMeasurement('direct', 16, { rps: 12_000, p50: 1, p99: 2, cpuUs: 40, rssMb: 90 }),
    fakeMeasurement('floor', 16, { rps: 10_000, p50: 1.5, p99: 5, cpuUs: 70, rssMb: 110 }),
    withLoop(fakeMeasurement('svc', 16, { rps: 2_000, p50: 7, p99: 59, cpuUs: 549, rssMb: 600 }), 31),
    fakeMeasurement('portkey', 16, { rps: 800, p50: 18, p99: 43, cpuUs: 1413, rssMb: 195 }),
  ];
  const processes = [
    { label: 'floor', shippedDefaults: false, pid: 1, startedAt: 1, idleRssMb: 60, peakRssMb: 104, lastRssMb: 90 },
    { label: 'svc', shippedDefaults: true, pid: 2, startedAt: 2, idleRssMb: 608, peakRssMb: 690, lastRssMb: 662 },
    { label: 'svc (answer-cache part)', shippedDefaults: true, pid: 3, startedAt: 3, idleRssMb: 540, peakRssMb: 794, lastRssMb: 700 },
    { label: 'svc, SVC_SENTENCE_ENCODER=hashed (encoder part)', shippedDefaults: false, pid: 4, startedAt: 4, idleRssMb: 300, peakRssMb: 900, lastRssMb: 500 },
  ];
  const goals = lightGoals({ measurements, ttft, processes });
  const find = (start: string) => goals.find((x) => x.goal.startsWith(start));

  it('reads the load goals at 16 connections against the floor and Portkey of the same run', () => {
    expect(goalConnections(measurements)).toBe(16);
    expect(find('p99 at 16')?.value).toBeCloseTo(59 / 5);
    expect(find('CPU per proxied')?.value).toBeCloseTo(549 / 70);
    expect(find('proxy-mode throughput')?.value).toBeCloseTo(2.5);
    expect(goalMet(find('proxy-mode throughput')!)).toBe(false);
    expect(find('event-loop delay max under proxy load ≤')?.value).toBe(31);
  });

  it('judges time to first token as what each adds to the mock\'s own', () => {
    expect(find('time to first token added, proxy')?.value).toBeCloseTo(4.0 / 0.85);
    expect(find('time to first token added, cache')?.value).toBeCloseTo(5.0);
    expect(goalMet(find('time to first token added, cache')!)).toBe(true);
    expect(goalVerdict(find('time to first token added, full')!)).toBe('not measured');
  });

  it('takes idle RSS from the main svc and the peak from every svc on the shipped defaults, not from variants', () => {
    expect(find('gateway RSS idle')?.value).toBe(608);
    expect(find('gateway peak RSS')?.value).toBe(794);
    expect(find('gateway peak RSS')?.figure).toContain('svc (answer-cache part)');
    const noMain = [
      { label: 'svc (report loop, 1,000,000-row ledger)', shippedDefaults: true, seeded: true, pid: 5, startedAt: 5, idleRssMb: 700, peakRssMb: 750, lastRssMb: 720 },
      { label: 'svc (soak)', shippedDefaults: true, pid: 6, startedAt: 6, idleRssMb: 480, peakRssMb: 520, lastRssMb: 500 },
    ];
    const idle = lightGoals({ measurements, processes: noMain }).find((x) => x.goal.startsWith('gateway RSS idle'));
    expect(idle?.figure).toBe('480 MB (svc (soak))');
  });

  it('leaves what the run did not measure open: exact hit, report loop, soak, and the production stores rows only when they ran', () => {
    for (const start of ['CPU per exact hit', 'event-loop delay max under proxy load with', '10-minute soak']) {
      expect(goalVerdict(find(start)!)).toBe('not measured');
    }
    expect(goals.some((x) => x.goal.includes('production stores'))).toBe(false);
    const floorAt = (c: number) => fakeMeasurement('floor', c, { rps: 1, p50: 1, p99: 1, cpuUs: 1, rssMb: 1 });
    expect(goalConnections([floorAt(1), floorAt(50)])).toBe(50);
    expect(goalVerdict(lightGoals({ measurements: [floorAt(1), floorAt(50), withLoop(fakeMeasurement('svc', 50, { rps: 1, p50: 1, p99: 9, cpuUs: 1, rssMb: 1 }), 1)] })[3]!)).toBe('not measured');
  });

  it('judges the soak only when it ran ten minutes', () => {
    const figures = { from: 60, first: 300, last: 310, min: 298, max: 315, range: 17 / 298, flat: true };
    const soak = (durationSec: number) => ({ durationSec, rate: 200, connections: 8, samples: [], figures, skipped: [] });
    const of = (durationSec: number) => lightGoals({ measurements, soak: soak(durationSec) }).find((x) => x.goal.startsWith('10-minute soak'))!;
    expect(goalVerdict(of(600))).toBe('met');
    expect(of(600).value).toBeCloseTo(5.7, 1);
    expect(goalVerdict(of(30))).toBe('not measured');
    expect(of(30).figure).toContain('shorter than the 600 s the goal asks');
  });
});
