import { setTimeout as sleep } from 'node:timers/promises';
import { cacheBody } from './cache-figures.js';
import { cacheQuestion } from './cache-questions.js';
import { type Measurement, measure, upstreamCounts } from './measure.js';
import { runLoad, type LoadResult } from './load.js';
import { memoryBody } from './memory-prompts.js';
import type { PartContext } from './part-context.js';
import { readProc } from './proc-stats.js';
import { SVC_MODEL, type SvcProcess, startSvcProcess, svcTarget } from './svc-target.js';
import type { Target } from './target.js';

/** The `SVC_SENTENCE_ENCODER` values compared: the hashed embedder (no model) and the default. */
export const ENCODERS = ['hashed', 'minilm'] as const;
export type EncoderName = (typeof ENCODERS)[number];
/** The gateway's default `SVC_SENTENCE_ENCODER`. */
export const DEFAULT_ENCODER: EncoderName = 'minilm';

/** Proxy-mode probe of the isolation runs: a light fixed rate, so its p99 is latency, not saturation. */
export const PROXY_PROBE = { connections: 2, rate: 200 } as const;
/**
 * The concurrent full-mode load of the isolation runs: memory prompts at a fixed rate, the same for
 * both encoders, low enough that minilm (about 30 ms CPU per memory request on this VM) leaves the
 * core headroom: the probe then shows waiting behind embeddings, not a saturated core.
 */
export const FULL_BACKGROUND = { connections: 2, rate: 15 } as const;

/** One loaded kind on one svc: `cache` and `full` at a connection count, or the proxy probe alone / beside full-mode load. */
export interface EncoderRun {
  kind: 'cache' | 'full' | 'proxy alone' | 'proxy beside full';
  connections: number;
  rate?: number;
  measurement: Measurement;
  /** `proxy beside full`: the full-mode load that ran at the same time. */
  background?: LoadResult;
}

/** One svc process started with one encoder. */
export interface EncoderInstance {
  encoder: EncoderName;
  /** What `/ready` reports for the encoder (`backend`, load `latency_ms`). */
  ready: string;
  /** RSS when ready, before any request, MiB. */
  idleRssMb: number;
  /** Peak RSS (VmHWM) after all its runs, MiB. */
  peakRssMb: number;
  /** `x-svc-memory-injected` of a question asked after a statement (0 would mean memory never recalled). */
  verifiedInjected: number;
  runs: EncoderRun[];
}

/** What the encoder part produced; also part of the JSON results file. */
export interface EncoderBenchReport {
  instances: EncoderInstance[];
  skipped: string[];
}

function sameRun(runs: readonly EncoderRun[], kind: EncoderRun['kind'], connections: number): EncoderRun | undefined {
  return runs.find((r) => r.kind === kind && r.connections === connections);
}

/** minilm minus hashed for one kind and connection count: latency in ms, CPU in µs per request. */
export function encoderAdded(report: EncoderBenchReport, kind: EncoderRun['kind'], connections: number): { p50Ms: number; p99Ms: number; cpuUs: number } | undefined {
  const [h, m] = ENCODERS.map((e) => report.instances.find((i) => i.encoder === e));
  const a = h && sameRun(h.runs, kind, connections)?.measurement;
  const b = m && sameRun(m.runs, kind, connections)?.measurement;
  if (!a || !b) return undefined;
  return { p50Ms: b.load.latency.p50 - a.load.latency.p50, p99Ms: b.load.latency.p99 - a.load.latency.p99, cpuUs: b.cpuUsPerRequest - a.cpuUsPerRequest };
}

async function readyLine(svc: SvcProcess): Promise<string> {
  try {
    const res = await fetch(`${svc.base}/ready`);
    const body = (await res.json()) as { dependencies?: { encoder?: { backend?: string; latency_ms?: number } } };
    const e = body.dependencies?.encoder;
    return e ? `${e.backend ?? '?'}${e.latency_ms === undefined ? '' : `, loaded in ${e.latency_ms} ms`}` : 'not reported';
  } catch {
    return 'not reported';
  }
}

/** States facts for one end user, then asks about them until memory injects something (storing is asynchronous). */
async function verifyMemory(svc: SvcProcess): Promise<number> {
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${svc.masterKey}`, 'x-intelligence-mode': 'full' };
  const post = (content: string) =>
    fetch(`${svc.base}/v1/chat/completions`, { method: 'POST', headers, body: JSON.stringify({ model: SVC_MODEL, user: 'bench-verify', messages: [{ role: 'user', content }] }) });
  await (await post('I live at 4 Harbour Road in Tampere. My favourite drink is green tea.')).arrayBuffer();
  for (let attempt = 0; attempt < 20; attempt++) {
    const res = await post(`Which road do I live on? (check ${attempt})`);
    await res.arrayBuffer();
    const injected = Number(res.headers.get('x-svc-memory-injected') ?? 0);
    if (injected > 0) return injected;
    await sleep(100);
  }
  return 0;
}

/**
 * Proxy-mode probe and full-mode load on the same svc at the same time, each at its fixed rate;
 * CPU is the process's over both loads, charged to all their responses.
 */
async function proxyBesideFull(proxy: Target, full: Target, ctx: PartContext): Promise<EncoderRun> {
  const { options } = ctx;
  const spec = (t: Target, shape: { connections: number; rate: number }, durationSec: number) => ({
    url: t.url,
    headers: t.headers,
    body: t.body(false),
    nextBody: () => t.body(false),
    connections: shape.connections,
    overallRate: shape.rate,
    durationSec,
  });
  if (options.warmupSec > 0) await Promise.all([runLoad(spec(proxy, PROXY_PROBE, options.warmupSec)), runLoad(spec(full, FULL_BACKGROUND, options.warmupSec))]);
  const before = readProc(proxy.pid);
  const upBefore = readProc(ctx.mockPid);
  const counts = await upstreamCounts(ctx.mockUrl);
  const loadgen = process.cpuUsage();
  const [probe, background] = await Promise.all([runLoad(spec(proxy, PROXY_PROBE, options.durationSec)), runLoad(spec(full, FULL_BACKGROUND, options.durationSec))]);
  const used = process.cpuUsage(loadgen);
  const after = readProc(proxy.pid);
  const countsAfter = await upstreamCounts(ctx.mockUrl);
  const cpuMs = after.cpuMs - before.cpuMs;
  const responses = probe.responses + background.responses;
  return {
    kind: 'proxy beside full',
    connections: PROXY_PROBE.connections,
    rate: PROXY_PROBE.rate,
    background,
    measurement: {
      target: 'svc',
      connections: PROXY_PROBE.connections,
      stream: false,
      rate: PROXY_PROBE.rate,
      load: probe,
      cpuMs,
      cpuUsPerRequest: responses > 0 ? (cpuMs * 1000) / responses : Number.NaN,
      rssMb: after.rssKb / 1024,
      peakRssMb: after.peakRssKb / 1024,
      upstreamCpuMs: readProc(ctx.mockPid).cpuMs - upBefore.cpuMs,
      loadgenCpuMs: (used.user + used.system) / 1000,
      loadAvg1: 0,
      upstreamRequests: countsAfter.total - counts.total,
      upstreamFaults: countsAfter.faults - counts.faults,
    },
  };
}

async function runInstance(encoder: EncoderName, ctx: PartContext): Promise<EncoderInstance | string> {
  const { options, log } = ctx;
  // minilm is the default: that svc is started with nothing set, so it runs the shipped defaults.
  const shipped = encoder === DEFAULT_ENCODER;
  log(`encoder: starting svc with ${shipped ? `its default encoder (${encoder})` : `SVC_SENTENCE_ENCODER=${encoder}`}...`);
  const started = await startSvcProcess(ctx.children, {
    root: ctx.root,
    mockUrl: ctx.mockUrl,
    cpus: ctx.cpus,
    label: shipped ? 'svc (encoder part, default minilm)' : `svc, SVC_SENTENCE_ENCODER=${encoder} (encoder part)`,
    ...(shipped ? {} : { extraEnv: { SVC_SENTENCE_ENCODER: encoder } }),
  });
  if (!started.ok) return `${encoder}: ${started.reason}`;
  const svc = started.svc;
  const idleRssMb = readProc(svc.pid).rssKb / 1024;
  const ready = await readyLine(svc);
  const verifiedInjected = await verifyMemory(svc);
  log(`  ${ready}; idle RSS ${idleRssMb.toFixed(0)} MB; memory check injected ${verifiedInjected}`);
  let next = 1;
  let nextMemory = 0;
  const cache: Target = { ...svcTarget(svc, SVC_MODEL, 'cache'), body: () => cacheBody(SVC_MODEL, cacheQuestion(next++)), bodyPerRequest: true };
  const full: Target = { ...svcTarget(svc, SVC_MODEL, 'full'), body: () => memoryBody(SVC_MODEL, nextMemory++), bodyPerRequest: true };
  const proxy: Target = { ...svcTarget(svc, SVC_MODEL, 'proxy'), body: () => cacheBody(SVC_MODEL, cacheQuestion(next++)), bodyPerRequest: true };
  const runs: EncoderRun[] = [];
  const spec = { durationSec: options.durationSec, warmupSec: options.warmupSec, stream: false, upstreamPid: ctx.mockPid, upstreamStatsUrl: ctx.mockUrl };
  const report = (r: EncoderRun) => {
    const m = r.measurement;
    log(`  ${encoder} ${r.kind} c=${r.connections}: ${m.load.rps.toFixed(0)} req/s, p50 ${m.load.latency.p50.toFixed(2)} ms, p99 ${m.load.latency.p99.toFixed(2)} ms, ${m.cpuUsPerRequest.toFixed(0)} µs CPU/req, upstream ${m.upstreamRequests} for ${m.load.responses}, failed ${m.load.non2xx + m.load.errors}${r.background ? `; beside ${r.background.rps.toFixed(0)} full req/s, p99 ${r.background.latency.p99.toFixed(2)} ms` : ''}`);
    runs.push(r);
  };
  for (const connections of options.connections) {
    for (const [kind, target] of [['cache', cache], ['full', full]] as const) {
      log(`encoder ${encoder} ${kind} c=${connections}: warm-up ${options.warmupSec}s + ${options.durationSec}s`);
      report({ kind, connections, measurement: await measure(target, { ...spec, connections }) });
    }
  }
  log(`encoder ${encoder}: proxy probe at ${PROXY_PROBE.rate} req/s alone, then beside full-mode load at ${FULL_BACKGROUND.rate} req/s`);
  report({ kind: 'proxy alone', connections: PROXY_PROBE.connections, rate: PROXY_PROBE.rate, measurement: await measure(proxy, { ...spec, connections: PROXY_PROBE.connections, rate: PROXY_PROBE.rate }) });
  report(await proxyBesideFull(proxy, full, ctx));
  const peakRssMb = readProc(svc.pid).peakRssKb / 1024;
  await ctx.children.stopPid(svc.pid);
  return { encoder, ready, idleRssMb, peakRssMb, verifiedInjected, runs };
}

/**
 * The local sentence encoder's cost on the request path: one svc with `SVC_SENTENCE_ENCODER=hashed`,
 * then one with the default (`minilm`), each alone on the gateway CPU, loaded the same way: unique
 * questions in `cache` mode, memory prompts in `full` mode (facts stated and asked about, so memory
 * embeds for recall and for storage), and a proxy-mode probe alone and beside full-mode load.
 */
export async function runEncoderBench(ctx: PartContext): Promise<EncoderBenchReport> {
  const report: EncoderBenchReport = { instances: [], skipped: [] };
  for (const encoder of ENCODERS) {
    const result = await runInstance(encoder, ctx);
    if (typeof result === 'string') report.skipped.push(result);
    else report.instances.push(result);
  }
  return report;
}
