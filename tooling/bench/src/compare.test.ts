import { describe, expect, it } from 'vitest';
import { ratio, svcVsPortkey, withOverhead } from './compare.js';
import { fakeMeasurement } from './fixtures.js';

const ms = [
  fakeMeasurement('direct', 10, { rps: 10_000, p50: 1, p99: 3, cpuUs: 40, rssMb: 60 }),
  fakeMeasurement('svc', 10, { rps: 6_000, p50: 1.5, p99: 5, cpuUs: 120, rssMb: 150 }),
  fakeMeasurement('portkey', 10, { rps: 4_000, p50: 2, p99: 7, cpuUs: 200, rssMb: 100 }),
  fakeMeasurement('svc', 50, { rps: 5_000, p50: 9, p99: 20, cpuUs: 130, rssMb: 160 }),
];

describe('ratio', () => {
  it('divides positive finite numbers only', () => {
    expect(ratio(3, 4)).toBe(0.75);
    expect(ratio(undefined, 4)).toBeUndefined();
    expect(ratio(1, 0)).toBeUndefined();
    expect(ratio(-0.1, 1)).toBeUndefined();
    expect(ratio(Number.NaN, 1)).toBeUndefined();
  });
});

describe('withOverhead', () => {
  it('subtracts the direct p50/p99 of the same scenario', () => {
    const rows = withOverhead(ms);
    expect(rows[1]).toMatchObject({ p50OverheadMs: 0.5, p99OverheadMs: 2 });
    expect(rows[0]).toMatchObject({ p50OverheadMs: 0, p99OverheadMs: 0 });
  });
  it('leaves overhead undefined without a direct run', () => {
    expect(withOverhead(ms)[3]?.p50OverheadMs).toBeUndefined();
  });
});

describe('svcVsPortkey', () => {
  it('gives svc/portkey ratios only where both ran', () => {
    const [r, ...rest] = svcVsPortkey(ms);
    expect(rest).toEqual([]);
    expect(r).toMatchObject({ connections: 10, stream: false, rps: 1.5, p50Overhead: 0.5, p99Overhead: 0.5, cpuPerRequest: 0.6, rss: 1.5 });
  });
});
