import { describe, expect, it } from 'vitest';
import { floorRows } from './floor-figures.js';
import { fakeMeasurement } from './fixtures.js';

describe('floor figures', () => {
  const measurements = [
    fakeMeasurement('direct', 16, { rps: 12_000, p50: 1, p99: 2, cpuUs: 40, rssMb: 90 }),
    fakeMeasurement('floor', 16, { rps: 10_000, p50: 1.5, p99: 5, cpuUs: 70, rssMb: 110 }),
    fakeMeasurement('svc', 16, { rps: 2_000, p50: 7, p99: 80, cpuUs: 525, rssMb: 600 }),
  ];

  it('divides each figure by the floor of the same connection count', () => {
    const svc = floorRows({ measurements }).find((r) => r.label === 'svc, proxy mode');
    expect(svc?.cpu).toBeCloseTo(7.5);
    expect(svc?.p99).toBeCloseTo(16);
    expect(svc?.peakRss).toBeCloseTo(600 / 110);
    expect(floorRows({ measurements: measurements.filter((m) => m.target !== 'floor') })).toEqual([]);
  });

  it('puts svc with OpenTelemetry on next to svc, against the same floor', () => {
    const otel = fakeMeasurement('svc-otel', 16, { rps: 1_800, p50: 8, p99: 90, cpuUs: 630, rssMb: 620 });
    const rows = floorRows({ measurements: [...measurements, otel] });
    expect(rows.map((r) => r.label)).toEqual(['floor (node:http + undici Pool)', 'svc, proxy mode', 'svc, proxy mode, OpenTelemetry on']);
    expect(rows[2]?.cpu).toBeCloseTo(9);
  });
});
