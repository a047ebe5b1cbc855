import { describe, expect, it } from 'vitest';
import { fakeMeasurement } from './fixtures.js';
import { type BenchReport, renderCacheSection, renderHttpReport, renderReport, renderResults, renderRouter, spliceGenerated } from './render.js';
import type { RouterBenchResult } from './router-bench.js';

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

  it('states the intelligence mode svc was measured in, when svc ran', () => {
    const line = '- svc requests carry `x-intelligence-mode: proxy`: no answer cache';
    expect(renderReport({ ...report, settings: { ...report.settings, svcMode: 'proxy' } })).toContain(line);
    const withoutSvc = report.measurements.filter((m) => m.target !== 'svc');
    expect(renderReport({ ...report, measurements: withoutSvc, settings: { ...report.settings, svcMode: 'proxy' } })).not.toContain(line);
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

describe('renderRouter', () => {
  const timing = (p50: number, p99: number) => ({ count: 10, mean: p50, p50, p90: p99, p99, max: p99 * 2 });
  const result: RouterBenchResult = {
    catalogModels: 100,
    warmup: 20_000,
    decisions: 50_000,
    route: timing(40, 150),
    decisionsPerSec: 20_000,
    classify: timing(5, 30),
    record: timing(4, 8),
    byKind: [{ name: 'short chat', share: 0.3, promptChars: 33, route: timing(35, 90) }],
  };

  it('states the figures and whether p99 is within the budget', () => {
    const text = renderRouter(result, report.machine);
    expect(text).toContain('| **route()**, whole mix | 40.0 | 150.0 | 150.0 | 300 | 40.0 |');
    expect(text).toContain('p99 150.0 µs is within the 200 µs budget');
    expect(renderRouter({ ...result, route: timing(40, 250) }, report.machine)).toContain('is **over** the 200 µs budget');
  });

  it('keeps the in-process parts out of the HTTP section', () => {
    const cache = { model: 'm', semanticCapacity: 2_000, scenarios: [], skipped: ['no svc build'] };
    const full = { ...report, router: result, cache };
    expect(renderReport(full)).toContain('**Routing decision**');
    expect(renderReport(full)).toContain('**Answer cache**');
    expect(renderHttpReport(full)).not.toContain('Routing decision');
    expect(renderHttpReport(full)).not.toContain('Answer cache');
    expect(renderCacheSection(full)).toContain('- **cache runs not measured:** no svc build');
    expect(renderReport({ ...full, measurements: [] })).toMatch(/^\*\*Routing decision\*\*[\s\S]*\*\*Answer cache\*\*/);
  });

  it('has its own generated section, so --only router keeps the HTTP results', () => {
    const doc = spliceGenerated(spliceGenerated('# Benchmarks\n', 'HTTP'), 'ROUTER', 'router');
    expect(doc).toContain('<!-- bench:results:start -->\nHTTP\n<!-- bench:results:end -->');
    expect(spliceGenerated(doc, 'ROUTER 2', 'router')).toContain('HTTP');
    expect(spliceGenerated(doc, 'ROUTER 2', 'router')).toContain('<!-- bench:router:start -->\nROUTER 2\n<!-- bench:router:end -->');
    const cached = spliceGenerated(doc, 'CACHE', 'cache');
    expect(cached).toContain('## Answer cache: latest run\n\n<!-- bench:cache:start -->\nCACHE\n<!-- bench:cache:end -->');
    expect(spliceGenerated(cached, 'CACHE 2', 'cache')).toContain('HTTP');
    expect(spliceGenerated(cached, 'CACHE 2', 'cache')).toContain('ROUTER');
  });
});
