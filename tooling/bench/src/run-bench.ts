import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import type { BenchOptions } from './args.js';
import { runCacheBench } from './cache-bench.js';
import type { CacheBenchReport } from './cache-figures.js';
import type { ChildSet } from './children.js';
import { type FallbackReport, runFallback } from './fallback.js';
import { startFloor } from './floor-target.js';
import { type EncoderBenchReport, runEncoderBench } from './encoder-bench.js';
import { hasTaskset, machineInfo } from './machine.js';
import { type Measurement, measure } from './measure.js';
import { startMockChild } from './mock-child.js';
import { type RouterBenchResult, runRouterBench } from './router-bench.js';
import { FETCH_SHIM_NOTE, type PortkeyInstall, findPortkey, installPortkey, portkeyCacheDir, startPortkey } from './portkey-target.js';
import type { BenchReport } from './render.js';
import { runSemanticCost, type SemanticCost, semanticSizes } from './semantic-cost.js';
import { type OtlpSink, startOtlpSink } from './otlp-sink.js';
import { startSvc } from './svc-target.js';
import { COMPARISON_MODE, chatBody, type Target, type TargetName } from './target.js';
import { verifyTarget } from './verify.js';

/** Progress lines go to stderr so stdout stays the markdown report. */
function log(line: string): void {
  process.stderr.write(`[bench] ${line}\n`);
}

/** Requests the mock upstream has served so far (its `GET /__mock/stats`). */
async function upstreamRequests(mockUrl: string): Promise<number> {
  const res = await fetch(`${mockUrl}/__mock/stats`);
  const stats = (await res.json()) as { total?: number };
  return stats.total ?? 0;
}

interface Placement {
  gateway: string | undefined;
  rest: string | undefined;
  description: string;
}

function placement(pin: boolean): Placement {
  const cpus = availableParallelism();
  if (!pin) return { gateway: undefined, rest: undefined, description: 'not pinned (--no-pin)' };
  if (cpus < 2 || !hasTaskset()) {
    return { gateway: undefined, rest: undefined, description: 'not pinned (needs taskset and 2+ CPUs)' };
  }
  // Pin this process (autocannon) and all its threads to CPU 0 with the mock; gateways get CPU 1.
  execFileSync('taskset', ['-a', '-cp', '0', String(process.pid)], { stdio: 'ignore' });
  const gateway = cpus === 2 ? '1' : `1-${cpus - 1}`;
  return {
    gateway,
    rest: '0',
    description: `taskset: gateway on CPU ${gateway}; mock upstream and load generator share CPU 0 (also in the direct runs, so the baseline has the same placement)`,
  };
}

/**
 * Start the mock and the requested gateways as child processes, verify each with one request,
 * run warm-up + measured autocannon runs per connection count (JSON, then stream if asked) and
 * return the report. Children are left to the caller's `ChildSet` to stop.
 */
export async function runBench(options: BenchOptions, root: string, children: ChildSet): Promise<BenchReport> {
  const machine = machineInfo(root); // before pinning narrows this process's CPU set
  // In-process and single-threaded: first, while no child process competes for the CPUs.
  const router = options.router ? routerPart() : undefined;
  const semantic = options.semantic ? await semanticPart() : undefined;
  if (options.only.length === 0 && !options.fallback && !options.cache && !options.encoder) {
    return { machine, settings: settingsOf(options, 'not pinned (in-process measurement only)', root), measurements: [], skipped: {}, notes: [], ...(router ? { router } : {}), ...(semantic ? { semantic } : {}) };
  }
  const place = placement(options.pin);
  log(`CPU placement: ${place.description}`);
  const mock = await startMockChild(children, { root, tokens: options.tokens, cpus: place.rest });
  log(`mock upstream at ${mock.url} (pid ${mock.child.pid})`);

  const targets: Target[] = [];
  let portkey: PortkeyInstall | undefined;
  let otlp: OtlpSink | undefined;
  const skipped: Partial<Record<TargetName, string>> = {};
  for (const name of options.only) {
    if (name === 'direct') {
      targets.push({
        name,
        url: `${mock.url}/v1/chat/completions`,
        headers: { 'content-type': 'application/json', authorization: 'Bearer mock' },
        body: (stream) => chatBody('gpt-4o-mini', stream),
        pid: mock.child.pid,
      });
      continue;
    }
    if (name === 'floor') {
      const floor = await startFloor(children, { mockUrl: mock.url, cpus: place.gateway });
      if (floor.ok) targets.push(floor.target);
      else skipped[name] = floor.reason;
      continue;
    }
    if (name === 'portkey') {
      const installed = installPortkey(portkeyCacheDir(root), log);
      if ('error' in installed) {
        skipped[name] = installed.error;
        continue;
      }
      portkey = installed;
    }
    log(`starting ${name}...`);
    if (name === 'svc-otel') otlp = await startOtlpSink();
    const otlpUrl = name === 'svc-otel' ? otlp?.url : undefined;
    const started =
      name === 'svc' || name === 'svc-otel'
        ? await startSvc(children, { root, mockUrl: mock.url, cpus: place.gateway, ...(otlpUrl ? { otlpUrl } : {}) })
        : await startPortkey(children, { install: portkey!, mockUrl: mock.url, cpus: place.gateway });
    if (started.ok) targets.push(started.target);
    else skipped[name] = started.reason;
  }

  const notes: string[] = [];
  const measurements: Measurement[] = [];
  for (const stream of options.stream ? [false, true] : [false]) {
    if (stream && portkey) {
      const plain = targets.findIndex((t) => t.name === 'portkey');
      if (plain >= 0) {
        await children.stopPid(targets[plain]?.pid ?? 0);
        targets.splice(plain, 1);
      }
      log('starting portkey with the stream fetch shim...');
      const shimmed = await startPortkey(children, { install: portkey, mockUrl: mock.url, cpus: place.gateway, fetchShim: true });
      if (shimmed.ok) {
        targets.push(shimmed.target);
        notes.push(FETCH_SHIM_NOTE);
      } else skipped.portkey = `stream: ${shimmed.reason}`;
    }
    const ready: Target[] = [];
    for (const target of targets) {
      const before = await upstreamRequests(mock.url);
      let problem = await verifyTarget(target, stream);
      if (problem === undefined && (await upstreamRequests(mock.url)) <= before) {
        problem = `${target.name} answered without calling the mock upstream (cache or built-in mock provider?)`;
      }
      if (problem === undefined) ready.push(target);
      else skipped[target.name] = `${skipped[target.name] ? `${skipped[target.name]}; ` : ''}${stream ? 'stream' : 'JSON'}: ${problem}`;
    }
    for (const connections of options.connections) {
      for (const target of ready) {
        log(`${target.name} ${stream ? 'stream' : 'JSON'} c=${connections}: warm-up ${options.warmupSec}s + ${options.durationSec}s`);
        const m = await measure(target, {
          connections,
          durationSec: options.durationSec,
          warmupSec: options.warmupSec,
          stream,
          upstreamPid: mock.child.pid,
          ...(options.rate === undefined ? {} : { rate: options.rate }),
        });
        log(`  ${m.load.rps.toFixed(0)} req/s, p50 ${m.load.latency.p50.toFixed(2)} ms, p99 ${m.load.latency.p99.toFixed(2)} ms, ${m.cpuUsPerRequest.toFixed(0)} µs CPU/req, failed ${m.load.non2xx + m.load.errors}`);
        measurements.push(m);
      }
    }
  }
  if (otlp) notes.push(otlpNote(otlp));
  let fallback: FallbackReport | undefined;
  if (options.fallback) {
    // The main gateways are done; stop them so the fallback svc has the gateway CPU to itself.
    for (const target of targets) if (target.name !== 'direct') await children.stopPid(target.pid);
    fallback = await runFallback({
      options,
      root,
      children,
      mockUrl: mock.url,
      mockPid: mock.child.pid,
      cpus: place.gateway,
      log,
    });
    for (const reason of fallback.skipped) log(`fallback NOT measured: ${reason}`);
  }
  let cache: CacheBenchReport | undefined;
  if (options.cache) {
    // A fresh svc with empty caches, alone on the gateway CPU.
    for (const target of targets) if (target.name !== 'direct') await children.stopPid(target.pid);
    cache = await runCacheBench({ options, root, children, mockUrl: mock.url, mockPid: mock.child.pid, cpus: place.gateway, log });
    for (const reason of cache.skipped) log(`cache runs NOT measured: ${reason}`);
  }
  let encoder: EncoderBenchReport | undefined;
  if (options.encoder) {
    for (const target of targets) if (target.name !== 'direct') await children.stopPid(target.pid);
    encoder = await runEncoderBench({ options, root, children, mockUrl: mock.url, mockPid: mock.child.pid, cpus: place.gateway, log });
    for (const reason of encoder.skipped) log(`encoder runs NOT measured: ${reason}`);
  }
  for (const [name, reason] of Object.entries(skipped)) log(`${name} NOT measured: ${reason}`);

  return {
    machine,
    settings: settingsOf(options, place.description, root),
    measurements,
    skipped,
    notes,
    ...(fallback ? { fallback } : {}),
    ...(router ? { router } : {}),
    ...(semantic ? { semantic } : {}),
    ...(cache ? { cache } : {}),
    ...(encoder ? { encoder } : {}),
  };
}

/** What the `svc-otel` target exported: evidence that its requests were traced. */
function otlpNote(otlp: OtlpSink): string {
  const { exports, spans, bytes } = otlp.received();
  return `svc-otel: svc with \`OTEL_EXPORTER_OTLP_ENDPOINT\` set (every request traced: a request span, a span per pipeline stage and per upstream attempt, exported as OTLP/HTTP JSON in batches) to a sink in the bench process that discards them; it received ${spans} spans in ${exports} exports (${(bytes / 1e6).toFixed(1)} MB), warm-ups included.`;
}

function settingsOf(options: BenchOptions, pinning: string, root: string): BenchReport['settings'] {
  return {
    durationSec: options.durationSec,
    warmupSec: options.warmupSec,
    connections: options.connections,
    stream: options.stream,
    tokens: options.tokens,
    ...(options.rate === undefined ? {} : { rate: options.rate }),
    pinning,
    svcMode: COMPARISON_MODE,
    versions: { autocannon: '8.0.0', '@portkey-ai/gateway': findPortkey(portkeyCacheDir(root))?.version ?? 'not installed' },
  };
}

function routerPart(): RouterBenchResult {
  log('routing decision: route() over a 100-model catalog, 20,000 warm-up + 50,000 measured calls...');
  const result = runRouterBench();
  const { route, classify } = result;
  log(`  route() p50 ${route.p50.toFixed(1)} µs, p99 ${route.p99.toFixed(1)} µs, ${result.decisionsPerSec.toFixed(0)} decisions/s; features + classify p50 ${classify.p50.toFixed(1)} µs`);
  return result;
}

async function semanticPart(): Promise<SemanticCost> {
  const sizes = semanticSizes();
  log(`semantic cache: the shared sentence encoder, lookups over the in-process store at ${sizes.map((n) => n.toLocaleString('en-US')).join(' and ')} entries...`);
  const result = await runSemanticCost({ sizes });
  log(`  ${result.embedder}: embedding p50 ${result.embed.wall.p50.toFixed(1)} µs, ${result.embed.cpuUs.toFixed(1)} µs CPU`);
  for (const r of result.rows) {
    log(`  ${r.entries} entries: lookup after the embedding p50 ${r.search.wall.p50.toFixed(1)} µs, ${r.search.cpuUs.toFixed(1)} µs CPU; with it p50 ${r.lookup.wall.p50.toFixed(1)} µs, ${r.lookup.cpuUs.toFixed(1)} µs CPU; store p50 ${r.store.p50.toFixed(1)} µs; ${r.hits} hits`);
  }
  return result;
}
