import type { BenchReport } from './bench-report.js';
import type { ProcessMemory } from './process-memory.js';
import { renderCacheRuns } from './render-cache.js';
import { fmt, runLine, signed } from './render-format.js';
import { REPORT_PATH, type ReportLoopReport } from './report-loop.js';
import type { SoakReport } from './soak.js';
import type { StoresReport } from './stores-bench.js';
import { ttftAdded } from './ttft.js';
import { TTFT_WARMUP, type TtftReport } from './ttft-bench.js';

/** Idle and peak RSS of every gateway process of the run. */
export function renderMemory(processes: readonly ProcessMemory[], settleSec: number | undefined): string {
  return [
    `**Gateway memory** (VmRSS ${settleSec === undefined ? '' : `${settleSec} s `}after the process answered ready, nothing sent yet; peak = VmHWM when it was stopped, so over everything it served in this run):`,
    '',
    '| process | shipped defaults | idle RSS MB | peak RSS MB | RSS at the end MB |',
    '|---|---|---:|---:|---:|',
    ...processes.map((p) => `| ${p.label} | ${p.shippedDefaults ? 'yes' : 'no'} | ${fmt(p.idleRssMb, 0)} | ${fmt(p.peakRssMb, 0)} | ${fmt(p.lastRssMb, 0)} |`),
  ].join('\n');
}

/** Time to first token per target, and what each adds to the mock's own. */
export function renderTtft(t: TtftReport): string {
  const direct = t.rows.find((r) => r.label === 'direct')?.summary;
  const lines = [
    `**Time to first token**, one streamed request at a time (what a chat user feels): ${TTFT_WARMUP} requests of warm-up, then ${t.requests} timed from sending to the first content token; the mock waits ${t.upstreamLatencyMs} ms before its first byte. "Added" is the median (p90) minus direct's.`,
    '',
    '| target | p50 ms | p90 ms | max ms | added p50 ms | added p90 ms | upstream calls/req | failed |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of t.rows) {
    const added = r.label === 'direct' ? undefined : ttftAdded(r.summary, direct);
    lines.push(`| ${r.label} | ${fmt(r.summary.p50)} | ${fmt(r.summary.p90)} | ${fmt(r.summary.max)} | ${signed(added?.p50)} | ${signed(added?.p90)} | ${fmt(r.upstreamCallsPerRequest)} | ${r.failed} |`);
  }
  lines.push(...t.skipped.map((s) => `- **not measured:** ${s}`));
  return lines.join('\n');
}

/** The report-loop runs side by side. */
export function renderReportLoop(r: ReportLoopReport): string {
  const ledger = r.ledgerRows.toLocaleString('en-US');
  const lines = [
    `**Report loop**: svc (shipped defaults) on a data directory seeded with ${ledger} usage rows${r.seedSec === undefined ? '' : ` (seeded in ${fmt(r.seedSec, 0)} s)`}, proxy mode; once alone, once while \`GET ${REPORT_PATH}\` (the traffic summary over the whole ledger, master key) runs in a loop, one report at a time.${r.firstReport ? ` One report before the load: ${fmt(r.firstReport.ms, 0)} ms, counting ${r.firstReport.requests?.toLocaleString('en-US') ?? '?'} requests.` : ''}`,
    '',
    '| run | conn | req/s | p50 ms | p99 ms | event loop p99 ms | event loop max ms | CPU µs/req | failed |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const [name, m] of [['alone', r.plain], ['report in a loop', r.withReports]] as const) {
    if (!m) continue;
    lines.push(`| ${name} | ${m.connections} | ${fmt(m.load.rps, 0)} | ${fmt(m.load.latency.p50)} | ${fmt(m.load.latency.p99)} | ${fmt(m.eventLoop?.p99Ms, 1)} | ${fmt(m.eventLoop?.maxMs, 1)} | ${fmt(m.cpuUsPerRequest, 0)} | ${m.load.non2xx + m.load.errors} |`);
  }
  if (r.reports) {
    lines.push(
      '',
      `Reports the loop completed (from the warm-up's start, the last one finishing after the measured run): ${r.reports.completed}, p50 ${fmt(r.reports.latency.p50, 0)} ms, max ${fmt(r.reports.latency.max, 0)} ms; ${r.reports.failed} failed. The second run's CPU per request includes the reports' own work on the store's thread.`,
    );
  }
  lines.push(...r.skipped.map((s) => `- **not measured:** ${s}`));
  return lines.join('\n');
}

/** The soak: RSS samples and whether they stayed flat. */
export function renderSoak(s: SoakReport): string {
  const f = s.figures;
  const lines = [
    `**Soak**: svc (shipped defaults), proxy mode at ${s.rate} req/s over ${s.connections} connections for ${s.durationSec} s, VmRSS every 10 s${s.load ? `; ${s.load.ok.toLocaleString('en-US')} answered, ${s.load.non2xx + s.load.errors} failed` : ''}.`,
  ];
  if (f) {
    lines.push(
      '',
      `${f.from > 0 ? `After the first ${f.from} s` : 'Over every sample'}: first ${fmt(f.first, 0)} MB, last ${fmt(f.last, 0)} MB, min ${fmt(f.min, 0)} MB, max ${fmt(f.max, 0)} MB: range ${fmt(f.range * 100, 1)}% of the minimum, **${f.flat ? 'flat' : 'not flat'}** within 10%.`,
      '',
      `Samples (s: MB): ${s.samples.map((x) => `${x.sec}: ${x.rssMb.toFixed(0)}`).join(', ')}.`,
    );
  }
  lines.push(...s.skipped.map((x) => `- **not measured:** ${x}`));
  return lines.join('\n');
}

/** The production-stores runs (the answer-cache part's tables), or why they did not run. */
export function renderStores(s: StoresReport): string {
  const lines = ['**Production stores**: svc with `DATABASE_URL` and `REDIS_URL` set (nothing else changed): proxy mode, exact hits and full-mode misses.'];
  if (s.cache && s.cache.scenarios.length > 0) lines.push('', renderCacheRuns(s.cache));
  lines.push(...s.skipped.map((x) => `- **${x.startsWith('not measured') ? x : `not measured: ${x}`}**`));
  return lines.join('\n');
}

/** The issue-34 section (memory, time to first token, report loop, production stores, soak), or undefined when none of it ran. */
export function renderLightSection(report: BenchReport): string | undefined {
  const parts: string[] = [];
  if (report.processes && report.processes.length > 0) parts.push(renderMemory(report.processes, report.settings.settleSec));
  if (report.ttft) parts.push(renderTtft(report.ttft));
  if (report.reportLoop) parts.push(renderReportLoop(report.reportLoop));
  if (report.stores) parts.push(renderStores(report.stores));
  if (report.soak) parts.push(renderSoak(report.soak));
  if (parts.length === 0) return undefined;
  return [runLine(report.machine), ...parts].join('\n\n');
}
