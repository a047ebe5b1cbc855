import { type FloorGoal, floorGoals, floorRows } from './floor-figures.js';
import { fmt, runLine, times } from './render-format.js';
import type { BenchReport } from './bench-report.js';

function verdict(g: FloorGoal): string {
  return g.met === undefined ? 'not measured' : g.met ? 'met' : '**missed**';
}

/** The floor section (every figure as a ratio to the minimal Node.js proxy), or undefined when the floor did not run. */
export function renderFloorSection(report: BenchReport): string | undefined {
  const inputs = { measurements: report.measurements, cache: report.cache, encoder: report.encoder };
  const rows = floorRows(inputs);
  if (rows.length === 0) return undefined;
  return [
    runLine(report.machine),
    '',
    'JSON, closed loop, same mock, same Node, same CPU pinning; "÷ floor" is the figure divided by the floor\'s at the same connection count (CPU and p99: lower is better; req/s: higher is better).',
    '',
    '| conn | measured | CPU µs/req | ÷ floor | p99 ms | ÷ floor | peak RSS MB | ÷ floor | req/s | ÷ floor |',
    '|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.connections} | ${r.label} | ${fmt(r.m.cpuUsPerRequest, 0)} | ${times(r.cpu)} | ${fmt(r.m.load.latency.p99)} | ${times(r.p99)} | ${fmt(r.m.peakRssMb, 0)} | ${times(r.peakRss)} | ${fmt(r.m.load.rps, 0)} | ${times(r.rps)} |`,
    ),
    '',
    "Issue 16's goals on this run:",
    '',
    '| goal | this run | verdict |',
    '|---|---|---|',
    ...floorGoals(inputs).map((g) => `| ${g.goal} | ${g.figure} | ${verdict(g)} |`),
  ].join('\n');
}
