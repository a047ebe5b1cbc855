import { type Row, svcVsPortkey, withOverhead } from './compare.js';
import { breakerReading, type FallbackReport, fallbackFigures, perResponse } from './fallback.js';
import type { MachineInfo } from './machine.js';
import type { Measurement } from './measure.js';
import type { LatencySummary } from './percentiles.js';
import type { BenchReport } from './bench-report.js';
import { renderCache, renderSemanticCost } from './render-cache.js';
import { renderEncoder } from './render-encoder.js';
import { renderFloorSection } from './render-floor.js';
import { renderLightSection } from './render-light.js';
import { fmt, machineLine, runLine, signed, times } from './render-format.js';
import type { RouterBenchResult } from './router-bench.js';

export type { BenchReport } from './bench-report.js';
export { fmt, signed, times } from './render-format.js';

function scenario(connections: number, stream: boolean, rate?: number): string {
  return `${stream ? 'stream' : 'JSON'}, ${connections} conn${rate === undefined ? '' : ` @ ${rate} req/s`}`;
}

function resultRow(r: Row): string {
  const { m } = r;
  const failures = m.load.non2xx + m.load.errors;
  return `| ${scenario(m.connections, m.stream, m.rate)} | ${m.target} | ${fmt(m.load.rps, 0)} | ${fmt(m.load.latency.p50)} | ${fmt(m.load.latency.p99)} | ${signed(r.p50OverheadMs)} | ${signed(r.p99OverheadMs)} | ${fmt(m.cpuUsPerRequest, 0)} | ${fmt(m.rssMb, 0)} (${fmt(m.peakRssMb, 0)}) | ${failures} |`;
}

/** The results table (one row per target and scenario) with overhead vs direct. */
export function renderResults(ms: readonly Measurement[]): string {
  const head =
    '| scenario | target | req/s | p50 ms | p99 ms | p50 overhead ms | p99 overhead ms | CPU µs/req | RSS MB (peak) | failed |\n' +
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|';
  return [head, ...withOverhead(ms).map(resultRow)].join('\n');
}

/** svc : Portkey ratios per scenario; empty string when they never ran side by side. */
export function renderRatios(ms: readonly Measurement[]): string {
  const ratios = svcVsPortkey(ms);
  if (ratios.length === 0) return '';
  const head =
    '| scenario | req/s (higher is better) | p50 overhead | p99 overhead | CPU per request | RSS |\n' +
    '|---|---:|---:|---:|---:|---:|';
  const rows = ratios.map(
    (r) =>
      `| ${scenario(r.connections, r.stream)} | ${times(r.rps)} | ${times(r.p50Overhead)} | ${times(r.p99Overhead)} | ${times(r.cpuPerRequest)} | ${times(r.rss)} |`,
  );
  return [head, ...rows].join('\n');
}

function bold(text: string): string {
  return text === '–' ? text : `**${text}**`;
}

/** The `--fallback` section: normal and fallback rows per scenario, and the difference. */
export function renderFallback(fb: FallbackReport): string {
  const lines: string[] = ['**Failed attempt + fallback** (`--fallback`)', ''];
  if (fb.pair) {
    lines.push(
      `Same svc process, same load: "normal" requests pin \`${fb.pair.healthyModel}\` (one upstream call, succeeds); "fallback" requests pin \`${fb.pair.failingModel}\`, whose upstream (${fb.failingProvider}, keyed by its API key on the mock) answers ${fb.fault} every time, so svc falls back to the same family on ${fb.healthyProvider}. "added" is fallback minus normal. Failed attempts/req is the mock's fault count over the measured run per response: 1 means every request paid a real failed attempt, about 0 means the circuit breaker was open and the failing provider was skipped.`,
      '',
    );
  }
  if (fb.results.length > 0) {
    lines.push(
      '| scenario | svc | requests | req/s | p50 ms | p99 ms | CPU µs/req | upstream calls/req | failed attempts/req | breaker of the failing model | failed |',
      '|---|---|---|---:|---:|---:|---:|---:|---:|---|---:|',
    );
    for (const r of fb.results) {
      const f = fallbackFigures(r);
      const name = scenario(r.connections, r.stream, r.rate);
      const row = (label: string, m: typeof r.normal, calls: number | undefined, failed: string, breaker: string): string =>
        `| ${name} | ${r.variant} | ${label} | ${fmt(m.load.rps, 0)} | ${fmt(m.load.latency.p50)} | ${fmt(m.load.latency.p99)} | ${fmt(m.cpuUsPerRequest, 0)} | ${fmt(calls)} | ${failed} | ${breaker} | ${m.load.non2xx + m.load.errors} |`;
      lines.push(
        row('normal', r.normal, f.upstreamCallsPerRequest.normal, fmt(perResponse(r.normal.upstreamFaults, r.normal)), ''),
        row(
          'failed attempt + fallback',
          r.fallback,
          f.upstreamCallsPerRequest.fallback,
          fmt(f.failedAttemptsPerRequest),
          breakerReading(f.failedAttemptsPerRequest),
        ),
        `| ${name} | ${r.variant} | **added** | | ${bold(signed(f.addedP50Ms))} | ${bold(signed(f.addedP99Ms))} | ${bold(signed(f.addedCpuUs, 0))} | | | | |`,
      );
    }
  }
  if (fb.skipped.length > 0) lines.push('', ...fb.skipped.map((reason) => `- **fallback not measured:** ${reason}`));
  return lines.join('\n');
}

/** The p99 budget of one routing decision (issue 4), µs. */
export const routeBudgetUs = 200;

function timingCells(s: LatencySummary): string {
  return `${fmt(s.p50, 1)} | ${fmt(s.p90, 1)} | ${fmt(s.p99, 1)} | ${fmt(s.max, 0)} | ${fmt(s.mean, 1)}`;
}

/** The routing-decision section: route() over the request mix, classify and record costs, per kind. */
export function renderRouter(r: RouterBenchResult, machine: MachineInfo): string {
  const verdict = r.route.p99 < routeBudgetUs ? 'within' : '**over**';
  return [
    runLine(machine),
    '',
    `\`createRouter({ catalog }).route(request)\` in process over a ${r.catalogModels}-model catalog (the built-in chat models, trimmed evenly across tiers), default policy (LinUCB with exploration): ${r.warmup.toLocaleString('en-US')} warm-up decisions with outcomes recorded, then ${r.decisions.toLocaleString('en-US')} measured one by one with \`performance.now()\`.`,
    '',
    '| measured | p50 µs | p90 µs | p99 µs | max µs | mean µs |',
    '|---|---:|---:|---:|---:|---:|',
    `| **route()**, whole mix | ${timingCells(r.route)} |`,
    `| extractFeatures + classify | ${timingCells(r.classify)} |`,
    `| record() (policy update) | ${timingCells(r.record)} |`,
    '',
    `**${fmt(r.decisionsPerSec, 0)} decisions/s** on one core; p99 ${fmt(r.route.p99, 1)} µs is ${verdict} the ${routeBudgetUs} µs budget.`,
    '',
    '| request kind | share | prompt chars | p50 µs | p99 µs | max µs |',
    '|---|---:|---:|---:|---:|---:|',
    ...r.byKind.map((k) => `| ${k.name} | ${fmt(k.share * 100, 0)}% | ${k.promptChars.toLocaleString('en-US')} | ${fmt(k.route.p50, 1)} | ${fmt(k.route.p99, 1)} | ${fmt(k.route.max, 0)} |`),
  ].join('\n');
}

function svcModeLine(report: BenchReport): string | undefined {
  const mode = report.settings.svcMode;
  const svcRan = report.fallback !== undefined || report.measurements.some((m) => m.target === 'svc');
  if (mode === undefined || !svcRan) return undefined;
  return mode === 'proxy'
    ? '- svc requests carry `x-intelligence-mode: proxy`: no answer cache, every request goes upstream as it does through Portkey, so the svc rows are per-request proxy overhead (the answer cache has its own section).'
    : `- svc requests carry \`x-intelligence-mode: ${mode}\`.`;
}

function hasHttp(report: BenchReport): boolean {
  return report.measurements.length > 0 || report.fallback !== undefined || Object.keys(report.skipped).length > 0;
}

/** The answer-cache section alone (what the `cache` section of docs/benchmarks.md holds), or undefined when it did not run. */
export function renderCacheSection(report: BenchReport): string | undefined {
  return report.cache ? renderCache(report.cache, report.machine, report.settings) : undefined;
}

/** The generated part of docs/benchmarks.md: machine, settings, results, ratios, skipped targets, then the in-process parts. */
export function renderReport(report: BenchReport, withFloor = true): string {
  const { machine, settings } = report;
  const parts: string[] = [];
  if (report.router) parts.push(`**Routing decision**\n\n${renderRouter(report.router, machine)}`);
  if (report.semantic) parts.push(`**Semantic cache, in process**\n\n${renderSemanticCost(report.semantic, machine)}`);
  const cache = renderCacheSection(report);
  if (cache) parts.push(`**Answer cache**\n\n${cache}`);
  if (report.encoder) parts.push(`**Sentence encoder**\n\n${renderEncoder(report.encoder, machine)}`);
  const floor = withFloor ? renderFloorSection(report) : undefined;
  if (floor) parts.push(`**Against the Node.js floor, and issue 34's goals**\n\n${floor}`);
  const light = withFloor ? renderLightSection(report) : undefined;
  if (light) parts.push(`**A light gateway: memory, time to first token, report loop, production stores, soak**\n\n${light}`);
  const tail = parts.join('\n\n');
  if (!hasHttp(report)) return tail;
  const mode = svcModeLine(report);
  const lines = [
    `Run ${machine.date.slice(0, 16).replace('T', ' ')} UTC${machine.gitCommit ? ` at commit \`${machine.gitCommit}\`` : ''}.`,
    '',
    `- Machine: ${machineLine(machine)}.`,
    `- Load: autocannon, ${settings.rate === undefined ? 'closed loop' : `at most ${settings.rate} requests/s in total`}, ${settings.durationSec} s per run after ${settings.warmupSec} s warm-up; connections ${settings.connections.join(', ')}; mock answer ${settings.tokens} tokens, no added latency.`,
    ...(mode ? [mode] : []),
    `- CPU placement: ${settings.pinning}.`,
    `- Versions: ${Object.entries(settings.versions)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}.`,
    '',
    renderResults(report.measurements),
  ];
  const ratios = renderRatios(report.measurements);
  if (ratios) {
    lines.push('', '**svc ÷ Portkey, same run** (below 1× is better for svc, except req/s):', '', ratios);
  }
  if (report.fallback) lines.push('', renderFallback(report.fallback));
  if (report.notes.length > 0) lines.push('', ...report.notes.map((n) => `- Note: ${n}`));
  const skipped = Object.entries(report.skipped);
  if (skipped.length > 0) {
    lines.push('', ...skipped.map(([name, reason]) => `- **${name} not measured:** ${reason}`));
  }
  if (tail) lines.push('', tail);
  return lines.join('\n');
}

/** The HTTP part of a report alone (what the `results` section of docs/benchmarks.md holds), or undefined when none ran. */
export function renderHttpReport(report: BenchReport): string | undefined {
  if (!hasHttp(report)) return undefined;
  const { router: _router, semantic: _semantic, cache: _cache, encoder: _encoder, ttft: _ttft, reportLoop: _loop, stores: _stores, soak: _soak, processes: _processes, ...http } = report;
  return renderReport(http, false);
}

const headings = {
  results: 'Latest results',
  router: 'Routing decision: latest run',
  semantic: 'Semantic cache in process: latest run',
  cache: 'Answer cache: latest run',
  encoder: 'Sentence encoder: latest run',
  floor: 'Against the Node.js floor: latest run',
  light: 'A light gateway (issue 34): latest run',
} as const;

/**
 * Put `generated` between the markers of one generated section (`results`: the HTTP runs,
 * `router`: the routing decision, `cache`: the answer cache) of an existing document, keeping the hand-written text around
 * them, or append a marked section when the markers are missing.
 */
export function spliceGenerated(document: string, generated: string, section: keyof typeof headings = 'results'): string {
  const START = `<!-- bench:${section}:start -->`;
  const END = `<!-- bench:${section}:end -->`;
  const block = `${START}\n${generated}\n${END}`;
  const start = document.indexOf(START);
  const end = document.indexOf(END);
  if (start >= 0 && end > start) {
    return document.slice(0, start) + block + document.slice(end + END.length);
  }
  return `${document.trimEnd()}\n\n## ${headings[section]}\n\n${block}\n`;
}
