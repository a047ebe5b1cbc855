import { type LoadResult, runLoad } from './load.js';
import type { PartContext } from './part-context.js';
import { readProcessMemory } from './process-memory.js';
import { SVC_MODEL, startSvcProcess, svcTarget } from './svc-target.js';
import { verifyTarget } from './verify.js';

/** Seconds between two RSS samples of the soak. */
export const SOAK_SAMPLE_SEC = 10;
/** Connections of the soak's load (a moderate rate over them, `--soak-rate`). */
export const SOAK_CONNECTIONS = 8;
/** RSS range within which the soak counts as flat (issue 34: "flat within 10%"). */
export const SOAK_FLAT = 0.1;

/** One RSS sample: seconds since the load started, MiB. */
export interface SoakSample {
  sec: number;
  rssMb: number;
}

/** What the RSS did over the soak, after its first minute (the heap and the store's buffers growing to their working size). */
export interface SoakFigures {
  /** Samples the figures are of (the first minute's are left out; all when the soak is shorter than two minutes). */
  from: number;
  first: number;
  last: number;
  min: number;
  max: number;
  /** (max − min) / min. */
  range: number;
  flat: boolean;
}

/** The soak part; also part of the JSON results file. */
export interface SoakReport {
  durationSec: number;
  rate: number;
  connections: number;
  samples: SoakSample[];
  load?: LoadResult;
  figures?: SoakFigures;
  skipped: string[];
}

/** Min, max, first and last RSS after the first minute, and whether their range is within {@link SOAK_FLAT}. */
export function soakFigures(samples: readonly SoakSample[]): SoakFigures | undefined {
  const last = samples.at(-1);
  if (!last) return undefined;
  const settleSec = last.sec >= 120 ? 60 : 0;
  const kept = samples.filter((s) => s.sec >= settleSec).map((s) => s.rssMb);
  const min = Math.min(...kept);
  const max = Math.max(...kept);
  const range = min > 0 ? (max - min) / min : Number.NaN;
  return { from: settleSec, first: kept[0] as number, last: kept.at(-1) as number, min, max, range, flat: range <= SOAK_FLAT };
}

/** Read the RSS of `pid` every {@link SOAK_SAMPLE_SEC} seconds until stopped. */
function sampleRss(pid: number): { stop(): SoakSample[] } {
  const samples: SoakSample[] = [];
  const started = performance.now();
  const timer = setInterval(() => {
    const memory = readProcessMemory(pid);
    if (memory) samples.push({ sec: Math.round((performance.now() - started) / 1000), rssMb: memory.rssKb / 1024 });
  }, SOAK_SAMPLE_SEC * 1000);
  return {
    stop() {
      clearInterval(timer);
      return samples;
    },
  };
}

/**
 * A fresh svc with its shipped defaults under proxy-mode load at a moderate fixed rate for
 * `--soak` seconds, its RSS read every {@link SOAK_SAMPLE_SEC} s: does memory stay flat?
 */
export async function runSoak(ctx: PartContext, durationSec: number): Promise<SoakReport> {
  const rate = ctx.options.soakRate;
  const report: SoakReport = { durationSec, rate, connections: SOAK_CONNECTIONS, samples: [], skipped: [] };
  const started = await startSvcProcess(ctx.children, { root: ctx.root, mockUrl: ctx.mockUrl, cpus: ctx.cpus, label: 'svc (soak)' });
  if (!started.ok) {
    report.skipped.push(started.reason);
    return report;
  }
  const target = svcTarget(started.svc, SVC_MODEL);
  const problem = await verifyTarget(target, false);
  if (problem) report.skipped.push(problem);
  else {
    ctx.log(`soak: proxy mode at ${rate} req/s over ${SOAK_CONNECTIONS} connections for ${durationSec} s, RSS every ${SOAK_SAMPLE_SEC} s...`);
    const sampler = sampleRss(started.svc.pid);
    report.load = await runLoad({ url: target.url, headers: target.headers, body: target.body(false), connections: SOAK_CONNECTIONS, durationSec, overallRate: rate });
    report.samples = sampler.stop();
    const figures = soakFigures(report.samples);
    if (figures) report.figures = figures;
    ctx.log(`  RSS ${figures ? `${figures.min.toFixed(0)}-${figures.max.toFixed(0)} MB (range ${(figures.range * 100).toFixed(1)}%)` : 'not sampled'}; ${report.load.rps.toFixed(0)} req/s`);
  }
  await ctx.children.stopPid(started.svc.pid);
  return report;
}
