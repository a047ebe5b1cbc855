import { describe, expect, it } from 'vitest';
import type { BenchReport } from './bench-report.js';
import { fakeMeasurement } from './fixtures.js';
import { renderFloorSection } from './render-floor.js';
import { renderLightSection, renderMemory, renderStores, renderTtft } from './render-light.js';
import { storesMissing } from './stores-bench.js';

const machine = { date: '2026-12-01T10:00:00.000Z', nproc: 2, cpuModel: 'Test CPU', node: 'v20.20.2', kernel: '6.1', loadAvgAtStart: [0.2, 0.3, 0.4], gitCommit: 'abc1234' };
const settings = { durationSec: 8, warmupSec: 2, connections: [16], stream: false, tokens: 16, pinning: 'not pinned', settleSec: 5, versions: {} };

describe('the light-gateway section', () => {
  it('lists each gateway process with its idle and peak RSS, and whether it ran the shipped defaults', () => {
    const text = renderMemory([{ label: 'svc', shippedDefaults: true, pid: 7, startedAt: 0, idleRssMb: 608.4, peakRssMb: 690, lastRssMb: 662 }], 5);
    expect(text).toContain('VmRSS 5 s after the process answered ready');
    expect(text).toContain('| svc | yes | 608 | 690 | 662 |');
  });

  it('shows each target\'s time to first token and what it adds to the mock\'s own', () => {
    const summary = (p50: number) => ({ count: 80, p50, p90: p50 + 0.5, max: p50 + 2 });
    const text = renderTtft({
      requests: 80,
      upstreamLatencyMs: 1,
      skipped: ['portkey: answered 500'],
      rows: [
        { label: 'direct', target: 'direct', summary: summary(1.2), failed: 0, upstreamCallsPerRequest: 1 },
        { label: 'svc, full mode, unique prompts (misses)', target: 'svc', mode: 'full', summary: summary(21.5), failed: 1, upstreamCallsPerRequest: 1 },
      ],
    });
    expect(text).toContain('| direct | 1.20 | 1.70 | 3.20 | – | – | 1.00 | 0 |');
    expect(text).toContain('| svc, full mode, unique prompts (misses) | 21.50 | 22.00 | 23.50 | +20.30 | +20.30 | 1.00 | 1 |');
    expect(text).toContain('- **not measured:** portkey: answered 500');
  });

  it('says why the production-stores rows did not run', () => {
    expect(storesMissing({})).toBe('not measured: no PostgreSQL (--database-url or BENCH_DATABASE_URL) and no Redis (--redis-url or BENCH_REDIS_URL) given');
    expect(storesMissing({ databaseUrl: 'postgres://x', redisUrl: 'redis://y' })).toBeUndefined();
    expect(renderStores({ skipped: [storesMissing({ databaseUrl: 'postgres://x' })!] })).toContain('- **not measured: no Redis (--redis-url or BENCH_REDIS_URL) given**');
  });

  it('is left out when none of its parts ran', () => {
    const report: BenchReport = { machine, settings, measurements: [], skipped: {}, notes: [] };
    expect(renderLightSection(report)).toBeUndefined();
    expect(renderFloorSection(report)).toBeUndefined();
  });
});

describe('the floor section', () => {
  it('shows the event loop of svc runs and judges issue 34\'s goals under the table', () => {
    const svc = { ...fakeMeasurement('svc', 16, { rps: 2_000, p50: 7, p99: 59, cpuUs: 549, rssMb: 600 }), eventLoop: { p99Ms: 4.1, maxMs: 31.2, resolutionMs: 10, reading: { minMs: 10, p99Ms: 14.1, maxMs: 41.2 } } };
    const report: BenchReport = { machine, settings, skipped: {}, notes: [], measurements: [fakeMeasurement('floor', 16, { rps: 10_000, p50: 1.5, p99: 5, cpuUs: 70, rssMb: 110 }), svc] };
    const text = renderFloorSection(report) ?? '';
    expect(text).toContain('| 16 | svc, proxy mode | 549 | 7.84× | 59.00 | 11.80× | 4.1 / 31.2 | 600 |');
    expect(text).toContain("Issue 34's goals on this run");
    expect(text).toContain('| event-loop delay max under proxy load ≤ 5 ms | 31.20 ms max, p99 4.10 ms (proxy mode, 16 conn) | **missed** by +26.2 ms (31.2 ms vs ≤ 5.0 ms) |');
    expect(text).not.toContain('Issue 16');
  });
});
