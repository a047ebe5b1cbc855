import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { REPORT_DAYS } from './ledger-rows.js';
import { type Measurement, measure } from './measure.js';
import type { PartContext } from './part-context.js';
import { type LatencySummary, summarise } from './percentiles.js';
import { SVC_MODEL, type SvcProcess, startSvcProcess, svcTarget } from './svc-target.js';
import { verifyTarget } from './verify.js';
import { lastLines } from './wait-ready.js';

/** Connections of the report-loop runs (issue 34: "p99 at 16 connections"). */
export const REPORT_LOOP_CONNECTIONS = 16;

/** The dashboard report the loop asks for: the traffic summary over the whole seeded ledger. */
export const REPORT_PATH = `/v1/observability/metrics/summary?days=${REPORT_DAYS}`;

/** What the report loop did during one loaded run. */
export interface ReportLoopStats {
  /** Reports answered 200 while the load ran (warm-up included). */
  completed: number;
  failed: number;
  /** Their durations, ms. */
  latency: LatencySummary;
}

/** The report-loop part; also part of the JSON results file. */
export interface ReportLoopReport {
  ledgerRows: number;
  /** Seconds the seeding took (a child process, before svc started). */
  seedSec?: number;
  /** One report before the load: how long it took and how many requests it counted (the seeded rows). */
  firstReport?: { ms: number; requests: number | undefined };
  /** svc in proxy mode at 16 connections on the seeded directory, nothing else running. */
  plain?: Measurement;
  /** The same, while the report runs in a loop. */
  withReports?: Measurement;
  reports?: ReportLoopStats;
  skipped: string[];
}

async function seed(ctx: PartContext, dir: string, rows: number): Promise<string | undefined> {
  // Every CPU: a child inherits the bench's own pinning (CPU 0), and nothing is measured yet.
  const all = cpus().length;
  const child = await ctx.children.spawn({
    name: 'seed-ledger',
    command: process.execPath,
    args: [fileURLToPath(new URL('./seed-ledger.js', import.meta.url)), dir, String(rows)],
    ...(ctx.cpus !== undefined && all > 1 ? { cpus: `0-${all - 1}` } : {}),
  });
  child.process.stdout?.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) ctx.log(`  ${line.trim()}`);
  });
  const code = await child.exited;
  return code === 0 ? undefined : `seeding ${rows} ledger rows failed (${code}): ${lastLines(child.output())}`;
}

async function askReport(svc: SvcProcess): Promise<{ ms: number; ok: boolean; requests: number | undefined }> {
  const started = performance.now();
  try {
    const res = await fetch(`${svc.control}${REPORT_PATH}`, { headers: { authorization: `Bearer ${svc.masterKey}` } });
    const body = (await res.json()) as { requests?: { total?: number } };
    return { ms: performance.now() - started, ok: res.status === 200, requests: body.requests?.total };
  } catch {
    return { ms: performance.now() - started, ok: false, requests: undefined };
  }
}

/** Ask for the report again and again, one at a time, until `stop()`; resolves with what it did. */
function reportLoop(svc: SvcProcess): { stop(): Promise<ReportLoopStats> } {
  const durations: number[] = [];
  let failed = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const r = await askReport(svc);
      if (r.ok) durations.push(r.ms);
      else failed++;
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return { completed: durations.length, failed, latency: summarise(durations) };
    },
  };
}

async function loadRuns(ctx: PartContext, svc: SvcProcess, report: ReportLoopReport): Promise<void> {
  const target = svcTarget(svc, SVC_MODEL);
  const problem = await verifyTarget(target, false);
  if (problem) {
    report.skipped.push(problem);
    return;
  }
  const spec = { connections: REPORT_LOOP_CONNECTIONS, durationSec: ctx.options.durationSec, warmupSec: ctx.options.warmupSec, stream: false, upstreamPid: ctx.mockPid };
  ctx.log(`report-loop: proxy c=${REPORT_LOOP_CONNECTIONS} alone: warm-up ${spec.warmupSec}s + ${spec.durationSec}s`);
  report.plain = await measure(target, spec);
  ctx.log(`report-loop: proxy c=${REPORT_LOOP_CONNECTIONS} beside GET ${REPORT_PATH} in a loop`);
  const loop = reportLoop(svc);
  report.withReports = await measure(target, spec);
  report.reports = await loop.stop();
  for (const m of [report.plain, report.withReports]) {
    ctx.log(`  ${m.load.rps.toFixed(0)} req/s, p99 ${m.load.latency.p99.toFixed(2)} ms, event loop max ${m.eventLoop?.maxMs.toFixed(1) ?? '?'} ms`);
  }
  ctx.log(`  reports: ${report.reports.completed} answered (p50 ${report.reports.latency.p50.toFixed(0)} ms), ${report.reports.failed} failed`);
}

/**
 * Does the event loop stay free while the control plane aggregates a large ledger? Seeds a data
 * directory with `ledgerRows` usage rows (a child process), starts svc on it with its shipped
 * defaults, and loads it in proxy mode at 16 connections alone and then while a dashboard report
 * over the whole ledger runs in a loop.
 */
export async function runReportLoop(ctx: PartContext): Promise<ReportLoopReport> {
  const rows = ctx.options.ledgerRows;
  const report: ReportLoopReport = { ledgerRows: rows, skipped: [] };
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-ledger-'));
  ctx.log(`report-loop: seeding ${rows.toLocaleString('en-US')} usage rows into ${dir}...`);
  try {
    await seededRuns(ctx, dir, report);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return report;
}

async function seededRuns(ctx: PartContext, dir: string, report: ReportLoopReport): Promise<void> {
  const rows = report.ledgerRows;
  const seeded = performance.now();
  const seedProblem = await seed(ctx, dir, rows);
  if (seedProblem) {
    report.skipped.push(seedProblem);
    return;
  }
  report.seedSec = (performance.now() - seeded) / 1000;
  const label = `svc (report loop, ${rows.toLocaleString('en-US')}-row ledger)`;
  const started = await startSvcProcess(ctx.children, { root: ctx.root, mockUrl: ctx.mockUrl, cpus: ctx.cpus, dataDir: dir, label });
  if (!started.ok) {
    report.skipped.push(started.reason);
    return;
  }
  const first = await askReport(started.svc);
  report.firstReport = { ms: first.ms, requests: first.requests };
  ctx.log(`  seeded in ${report.seedSec.toFixed(0)} s; one report: ${first.ms.toFixed(0)} ms, counted ${first.requests ?? '?'} requests`);
  if (!first.ok) report.skipped.push(`GET ${REPORT_PATH} did not answer 200`);
  else await loadRuns(ctx, started.svc, report);
  await ctx.children.stopPid(started.svc.pid);
}
