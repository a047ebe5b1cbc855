import { loadavg } from 'node:os';
import { type EventLoopDelay, eventLoopDelay, scrapeEventLoop } from './event-loop.js';
import { type LoadResult, type LoadSpec, runLoad } from './load.js';
import { readProc } from './proc-stats.js';
import type { Target, TargetName } from './target.js';

/** One measured scenario: a target under one connection count, streaming or not. */
export interface Measurement {
  target: TargetName;
  connections: number;
  stream: boolean;
  /** Offered rate cap, requests/s; absent for closed-loop runs. */
  rate?: number;
  load: LoadResult;
  /** CPU time of the target's process during the measured run, ms. */
  cpuMs: number;
  /** `cpuMs` per completed request, in microseconds (= CPU ms per 1,000 requests). */
  cpuUsPerRequest: number;
  /** RSS of the target's process after the run, MiB. */
  rssMb: number;
  /** Peak RSS of the target's process since it started, MiB. */
  peakRssMb: number;
  /** CPU time of the mock upstream during the run, ms (equals `cpuMs` for `direct`). */
  upstreamCpuMs: number;
  /** CPU time of the load generator (this process) during the run, ms. */
  loadgenCpuMs: number;
  /** 1-minute load average when the run ended (other work on the machine shows here). */
  loadAvg1: number;
  /** Requests the mock upstream received during the measured run (when `upstreamStatsUrl` was given). */
  upstreamRequests?: number;
  /** Of those, requests the mock answered with a fault. */
  upstreamFaults?: number;
  /** The gateway's event-loop delay over the measured run (svc: its `/metrics`); absent for other targets. */
  eventLoop?: EventLoopDelay;
}

/** Settings of one measurement. */
export interface MeasureSpec {
  connections: number;
  durationSec: number;
  warmupSec: number;
  stream: boolean;
  upstreamPid: number;
  rate?: number;
  /** The mock's base URL: count its requests and faults (`GET /__mock/stats`) over the measured run. */
  upstreamStatsUrl?: string;
}

interface UpstreamCounts {
  total: number;
  faults: number;
}

/** Requests and faults the mock upstream has counted so far. */
export async function upstreamCounts(mockUrl: string): Promise<UpstreamCounts> {
  const res = await fetch(`${mockUrl}/__mock/stats`);
  const stats = (await res.json()) as { total?: number; faults?: number };
  return { total: stats.total ?? 0, faults: stats.faults ?? 0 };
}

function loadOf(target: Target, spec: MeasureSpec): Omit<LoadSpec, 'durationSec'> {
  return {
    url: target.url,
    headers: target.headers,
    body: target.body(spec.stream),
    ...(target.bodyPerRequest ? { nextBody: () => target.body(spec.stream) } : {}),
    connections: spec.connections,
    ...(spec.rate === undefined ? {} : { overallRate: spec.rate }),
  };
}

/** The warm-up run of {@link measure} alone (nothing when `warmupSec` is 0). */
export async function warmUp(target: Target, spec: MeasureSpec): Promise<void> {
  if (spec.warmupSec > 0) await runLoad({ ...loadOf(target, spec), durationSec: spec.warmupSec });
}

/**
 * Warm the target up, then load it and charge CPU/RSS from /proc to its process. A target with a
 * `metricsUrl` is scraped right before the run (prom-client resets its event-loop histogram then)
 * and right after it, outside the CPU window.
 */
export async function measure(target: Target, spec: MeasureSpec): Promise<Measurement> {
  const load = loadOf(target, spec);
  await warmUp(target, spec);
  const countsBefore = spec.upstreamStatsUrl ? await upstreamCounts(spec.upstreamStatsUrl) : undefined;
  if (target.metricsUrl) await scrapeEventLoop(target.metricsUrl);
  const before = readProc(target.pid);
  const upstreamBefore = readProc(spec.upstreamPid);
  const loadgenBefore = process.cpuUsage();
  const result = await runLoad({ ...load, durationSec: spec.durationSec });
  const loadgen = process.cpuUsage(loadgenBefore);
  const after = readProc(target.pid);
  const upstreamAfter = readProc(spec.upstreamPid);
  const loop = target.metricsUrl ? await scrapeEventLoop(target.metricsUrl) : undefined;
  const countsAfter = spec.upstreamStatsUrl ? await upstreamCounts(spec.upstreamStatsUrl) : undefined;
  const cpuMs = after.cpuMs - before.cpuMs;
  return {
    target: target.name,
    connections: spec.connections,
    stream: spec.stream,
    ...(spec.rate === undefined ? {} : { rate: spec.rate }),
    load: result,
    cpuMs,
    cpuUsPerRequest: result.responses > 0 ? (cpuMs * 1000) / result.responses : Number.NaN,
    rssMb: after.rssKb / 1024,
    peakRssMb: after.peakRssKb / 1024,
    upstreamCpuMs: upstreamAfter.cpuMs - upstreamBefore.cpuMs,
    loadgenCpuMs: (loadgen.user + loadgen.system) / 1000,
    loadAvg1: loadavg()[0] ?? 0,
    ...(loop ? { eventLoop: eventLoopDelay(loop) } : {}),
    ...(countsBefore && countsAfter
      ? {
          upstreamRequests: countsAfter.total - countsBefore.total,
          upstreamFaults: countsAfter.faults - countsBefore.faults,
        }
      : {}),
  };
}
