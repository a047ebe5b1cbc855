import type { BenchOptions } from './args.js';
import type { ChildSet } from './children.js';
import { startFloor } from './floor-target.js';
import { type Measurement, measure, upstreamCounts } from './measure.js';
import type { MockChild } from './mock-child.js';
import { type OtlpSink, startOtlpSink } from './otlp-sink.js';
import { FETCH_SHIM_NOTE, type PortkeyInstall, installPortkey, portkeyCacheDir, startPortkey } from './portkey-target.js';
import { startSvc } from './svc-target.js';
import { chatBody, type Target, type TargetName } from './target.js';
import { verifyTarget } from './verify.js';

/** What the main HTTP runs share: where the gateways run and what they send upstream to. */
export interface HttpContext {
  options: BenchOptions;
  root: string;
  children: ChildSet;
  mock: MockChild;
  /** CPUs of the gateways (`taskset -c`), or undefined when not pinned. */
  gatewayCpus: string | undefined;
  log: (line: string) => void;
}

/** The started targets of the main runs and what the runs produced. */
export interface HttpRuns {
  targets: Target[];
  measurements: Measurement[];
  skipped: Partial<Record<TargetName, string>>;
  notes: string[];
  /** Set when Portkey is one of the targets; `shimmed` once its stream-capable process replaced the plain one. */
  portkey?: { install: PortkeyInstall; shimmed: boolean };
  otlp?: OtlpSink;
}

function directTarget(mock: MockChild): Target {
  return {
    name: 'direct',
    url: `${mock.url}/v1/chat/completions`,
    headers: { 'content-type': 'application/json', authorization: 'Bearer mock' },
    body: (stream) => chatBody('gpt-4o-mini', stream),
    pid: mock.child.pid,
  };
}

async function startTarget(ctx: HttpContext, runs: HttpRuns, name: TargetName): Promise<void> {
  const { children, mock, gatewayCpus: cpus, root } = ctx;
  if (name === 'direct') {
    runs.targets.push(directTarget(mock));
    return;
  }
  if (name === 'portkey') {
    const installed = installPortkey(portkeyCacheDir(root), ctx.log);
    if ('error' in installed) {
      runs.skipped[name] = installed.error;
      return;
    }
    runs.portkey = { install: installed, shimmed: false };
  }
  ctx.log(`starting ${name}...`);
  if (name === 'svc-otel') runs.otlp = await startOtlpSink();
  const otlpUrl = name === 'svc-otel' ? runs.otlp?.url : undefined;
  const started =
    name === 'floor'
      ? await startFloor(children, { mockUrl: mock.url, cpus })
      : name === 'svc' || name === 'svc-otel'
        ? await startSvc(children, { root, mockUrl: mock.url, cpus, ...(otlpUrl ? { otlpUrl } : {}) })
        : await startPortkey(children, { install: runs.portkey!.install, mockUrl: mock.url, cpus });
  if (started.ok) runs.targets.push(started.target);
  else runs.skipped[name] = started.reason;
}

/**
 * Replace the plain Portkey process with one that can stream on Node (the fetch shim), once: the
 * stream runs and the time-to-first-token requests need it.
 */
export async function shimPortkey(ctx: HttpContext, runs: HttpRuns): Promise<void> {
  if (!runs.portkey || runs.portkey.shimmed) return;
  runs.portkey.shimmed = true;
  const plain = runs.targets.findIndex((t) => t.name === 'portkey');
  if (plain >= 0) {
    await ctx.children.stopPid(runs.targets[plain]?.pid ?? 0);
    runs.targets.splice(plain, 1);
  }
  ctx.log('starting portkey with the stream fetch shim...');
  const shimmed = await startPortkey(ctx.children, { install: runs.portkey.install, mockUrl: ctx.mock.url, cpus: ctx.gatewayCpus, fetchShim: true });
  if (shimmed.ok) {
    runs.targets.push(shimmed.target);
    runs.notes.push(FETCH_SHIM_NOTE);
  } else runs.skipped.portkey = `stream: ${shimmed.reason}`;
}

/** The targets that answer one real request (through the mock: a cache or built-in provider would not count). */
async function readyTargets(ctx: HttpContext, runs: HttpRuns, stream: boolean): Promise<Target[]> {
  const ready: Target[] = [];
  for (const target of runs.targets) {
    const before = (await upstreamCounts(ctx.mock.url)).total;
    let problem = await verifyTarget(target, stream);
    if (problem === undefined && (await upstreamCounts(ctx.mock.url)).total <= before) {
      problem = `${target.name} answered without calling the mock upstream (cache or built-in mock provider?)`;
    }
    if (problem === undefined) ready.push(target);
    else runs.skipped[target.name] = `${runs.skipped[target.name] ? `${runs.skipped[target.name]}; ` : ''}${stream ? 'stream' : 'JSON'}: ${problem}`;
  }
  return ready;
}

async function loadAll(ctx: HttpContext, runs: HttpRuns, ready: readonly Target[], stream: boolean): Promise<void> {
  const { options } = ctx;
  for (const connections of options.connections) {
    for (const target of ready) {
      ctx.log(`${target.name} ${stream ? 'stream' : 'JSON'} c=${connections}: warm-up ${options.warmupSec}s + ${options.durationSec}s`);
      const m = await measure(target, {
        connections,
        durationSec: options.durationSec,
        warmupSec: options.warmupSec,
        stream,
        upstreamPid: ctx.mock.child.pid,
        ...(options.rate === undefined ? {} : { rate: options.rate }),
      });
      const loop = m.eventLoop ? `, event loop p99 ${m.eventLoop.p99Ms.toFixed(1)} / max ${m.eventLoop.maxMs.toFixed(1)} ms` : '';
      ctx.log(`  ${m.load.rps.toFixed(0)} req/s, p50 ${m.load.latency.p50.toFixed(2)} ms, p99 ${m.load.latency.p99.toFixed(2)} ms, ${m.cpuUsPerRequest.toFixed(0)} µs CPU/req${loop}, failed ${m.load.non2xx + m.load.errors}`);
      runs.measurements.push(m);
    }
  }
}

/**
 * Start the `--only` HTTP targets, check each with one request, and load them: warm-up + measured
 * autocannon runs per connection count, JSON and then (with `--stream`) streaming. The targets stay
 * up for the parts that follow (time to first token); the caller's `ChildSet` stops them.
 */
export async function runHttp(ctx: HttpContext): Promise<HttpRuns> {
  const runs: HttpRuns = { targets: [], measurements: [], skipped: {}, notes: [] };
  for (const name of ctx.options.only) await startTarget(ctx, runs, name);
  for (const stream of ctx.options.stream ? [false, true] : [false]) {
    if (stream) await shimPortkey(ctx, runs);
    await loadAll(ctx, runs, await readyTargets(ctx, runs, stream), stream);
  }
  return runs;
}
