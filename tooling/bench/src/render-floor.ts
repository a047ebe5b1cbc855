import type { BenchReport } from './bench-report.js';
import { type FloorRow, floorRows } from './floor-figures.js';
import { type GoalInputs, goalMet, goalVerdict, lightGoals } from './goals.js';
import { fmt, runLine, times } from './render-format.js';

/** What the goals read from a report. */
export function goalInputs(report: BenchReport): GoalInputs {
  return {
    measurements: report.measurements,
    cache: report.cache,
    stores: report.stores?.cache,
    ttft: report.ttft,
    reportLoop: report.reportLoop,
    processes: report.processes,
    soak: report.soak,
  };
}

function loopCells(r: FloorRow): string {
  const e = r.m.eventLoop;
  return e ? `${fmt(e.p99Ms, 1)} / ${fmt(e.maxMs, 1)}` : '–';
}

function floorTable(rows: readonly FloorRow[]): string[] {
  if (rows.length === 0) return [];
  return [
    'JSON, closed loop, same mock, same Node, same CPU pinning; "÷ floor" is the figure divided by the floor\'s at the same connection count (CPU and p99: lower is better; req/s: higher is better). CPU is the whole process\'s, every thread. Event loop: the delay of svc\'s main thread over the measured run (its `/metrics`), ms.',
    '',
    '| conn | measured | CPU µs/req | ÷ floor | p99 ms | ÷ floor | event loop p99 / max ms | peak RSS MB | ÷ floor | req/s | ÷ floor |',
    '|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.connections} | ${r.label} | ${fmt(r.m.cpuUsPerRequest, 0)} | ${times(r.cpu)} | ${fmt(r.m.load.latency.p99)} | ${times(r.p99)} | ${loopCells(r)} | ${fmt(r.m.peakRssMb, 0)} | ${times(r.peakRss)} | ${fmt(r.m.load.rps, 0)} | ${times(r.rps)} |`,
    ),
    '',
  ];
}

/**
 * The floor section: every figure as a ratio to the minimal Node.js proxy, then issue 34's goals
 * judged on the run; undefined when neither the floor ran nor any goal was measured.
 */
export function renderFloorSection(report: BenchReport): string | undefined {
  const inputs = goalInputs(report);
  const rows = floorRows({ ...inputs, encoder: report.encoder });
  const goals = lightGoals(inputs);
  if (rows.length === 0 && goals.every((g) => goalMet(g) === undefined)) return undefined;
  return [
    runLine(report.machine),
    '',
    ...floorTable(rows),
    "Issue 34's goals on this run (svc on its shipped defaults unless the goal says otherwise):",
    '',
    '| goal | this run | verdict |',
    '|---|---|---|',
    ...goals.map((g) => `| ${g.goal} | ${g.figure} | ${goalVerdict(g)} |`),
  ].join('\n');
}
