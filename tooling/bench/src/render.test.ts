import { describe, expect, it } from 'vitest';
import { fakeMeasurement } from './fixtures.js';
import { type BenchReport, renderReport, renderResults, spliceGenerated } from './render.js';

const report: BenchReport = {
  machine: {
    date: '2026-11-21T10:00:00.000Z',
    nproc: 2,
    cpuModel: 'Test CPU',
    node: 'v20.20.2',
    kernel: '6.1',
    loadAvgAtStart: [0.5, 0.4, 0.3],
    gitCommit: 'abc1234',
  },
  settings: {
    durationSec: 10,
    warmupSec: 2,
    connections: [10],
    stream: false,
    tokens: 16,
    pinning: 'not pinned',
    versions: { autocannon: '8.0.0' },
  },
  measurements: [
    fakeMeasurement('direct', 10, { rps: 10_000, p50: 1, p99: 3, cpuUs: 40, rssMb: 60 }),
    fakeMeasurement('svc', 10, { rps: 6_000, p50: 1.5, p99: 5, cpuUs: 120, rssMb: 150 }),
    fakeMeasurement('portkey', 10, { rps: 4_000, p50: 2, p99: 7, cpuUs: 200, rssMb: 100 }),
  ],
  skipped: {},
  notes: [],
};

describe('renderResults', () => {
  it('renders one row per measurement with overhead vs direct', () => {
    const table = renderResults(report.measurements).split('\n');
    expect(table).toHaveLength(5);
    expect(table[3]).toBe('| JSON, 10 conn | svc | 6000 | 1.50 | 5.00 | +0.50 | +2.00 | 120 | 150 (150) | 0 |');
  });
});

describe('renderReport', () => {
  it('includes machine, the ratio table and skipped targets', () => {
    const md = renderReport({ ...report, skipped: { svc: 'dist missing' } });
    expect(md).toContain('2 CPUs (Test CPU)');
    expect(md).toContain('Node v20.20.2');
    expect(md).toContain('| JSON, 10 conn | 1.50× | 0.50× | 0.50× | 0.60× | 1.50× |');
    expect(md).toContain('**svc not measured:** dist missing');
  });

  it('omits the ratio table when Portkey did not run', () => {
    const md = renderReport({ ...report, measurements: report.measurements.slice(0, 2) });
    expect(md).not.toContain('svc ÷ Portkey');
  });
});

describe('spliceGenerated', () => {
  it('replaces only the text between the markers', () => {
    const doc = '# B\n\nintro\n<!-- bench:results:start -->\nold\n<!-- bench:results:end -->\n\nnotes\n';
    expect(spliceGenerated(doc, 'new')).toBe(
      '# B\n\nintro\n<!-- bench:results:start -->\nnew\n<!-- bench:results:end -->\n\nnotes\n',
    );
  });
  it('appends a marked section when there are no markers', () => {
    const out = spliceGenerated('# B\n', 'new');
    expect(out).toContain('## Latest results\n\n<!-- bench:results:start -->\nnew\n<!-- bench:results:end -->');
    expect(spliceGenerated(out, 'newer')).toContain('start -->\nnewer\n<!--');
  });
});
