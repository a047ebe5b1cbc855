import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import type { BenchOptions } from './args.js';
import type { BenchReport } from './bench-report.js';
import { runCacheBench } from './cache-bench.js';
import type { ChildSet } from './children.js';
import { runEncoderBench } from './encoder-bench.js';
import { runFallback } from './fallback.js';
import { type HttpContext, type HttpRuns, runHttp, shimPortkey } from './http-runs.js';
import { hasTaskset, machineInfo } from './machine.js';
import { startMockChild } from './mock-child.js';
import type { OtlpSink } from './otlp-sink.js';
import type { PartContext } from './part-context.js';
import { findPortkey, portkeyCacheDir } from './portkey-target.js';
import { runReportLoop } from './report-loop.js';
import { type RouterBenchResult, runRouterBench } from './router-bench.js';
import { runSemanticCost, type SemanticCost, semanticSizes } from './semantic-cost.js';
import { runSoak } from './soak.js';
import { runStores } from './stores-bench.js';
import { SVC_MODEL } from './svc-target.js';
import { COMPARISON_MODE, TARGET_NAMES } from './target.js';
import { runTtft, type TtftReport } from './ttft-bench.js';

/** Progress lines go to stderr so stdout stays the markdown report. */
function log(line: string): void {
  process.stderr.write(`[bench] ${line}\n`);
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

/** Pause between the last load run and the first time-to-first-token request, ms. */
const TTFT_PAUSE_MS = 2000;

/** True when the run starts any process (the mock, a gateway), false when it measures in process only. */
function needsProcesses(options: BenchOptions): boolean {
  return options.only.length > 0 || options.fallback || options.cache || options.encoder || options.reportLoop || options.stores || options.soakSec !== undefined;
}

/** The parts that run after the main targets, each on a svc of its own alone on the gateway CPU. */
async function laterParts(ctx: PartContext): Promise<Partial<BenchReport>> {
  const { options } = ctx;
  const out: Partial<BenchReport> = {};
  if (options.fallback) {
    out.fallback = await runFallback(ctx);
    for (const reason of out.fallback.skipped) log(`fallback NOT measured: ${reason}`);
  }
  if (options.cache) {
    out.cache = await runCacheBench(ctx);
    for (const reason of out.cache.skipped) log(`cache runs NOT measured: ${reason}`);
  }
  if (options.encoder) {
    out.encoder = await runEncoderBench(ctx);
    for (const reason of out.encoder.skipped) log(`encoder runs NOT measured: ${reason}`);
  }
  if (options.reportLoop) {
    out.reportLoop = await runReportLoop(ctx);
    for (const reason of out.reportLoop.skipped) log(`report loop NOT measured: ${reason}`);
  }
  if (options.stores) {
    out.stores = await runStores(ctx);
    for (const reason of out.stores.skipped) log(`production stores: ${reason}`);
  }
  if (options.soakSec !== undefined) out.soak = await runSoak(ctx, options.soakSec);
  return out;
}

/** Time to first token on the main targets, while they are still up (Portkey swapped for its stream-capable process first). */
async function ttftPart(http: HttpContext, runs: HttpRuns): Promise<TtftReport | undefined> {
  if (http.options.ttftRequests === 0 || runs.targets.length === 0) return undefined;
  await shimPortkey(http, runs);
  await sleep(TTFT_PAUSE_MS); // the load's tail (the ledger's batched writes) is done before the first timed request
  log(`time to first token: ${http.options.ttftRequests} streamed requests one at a time per target, the mock's first byte after ${http.options.ttftUpstreamMs} ms`);
  const order = [...runs.targets].sort((a, b) => TARGET_NAMES.indexOf(a.name) - TARGET_NAMES.indexOf(b.name));
  const report = await runTtft({ targets: order, svcModel: SVC_MODEL, requests: http.options.ttftRequests, upstreamLatencyMs: http.options.ttftUpstreamMs, mockUrl: http.mock.url, log });
  for (const reason of report.skipped) log(`ttft NOT measured: ${reason}`);
  return report;
}

/**
 * Start the mock and the requested gateways as child processes, verify each with one request,
 * run warm-up + measured autocannon runs per connection count (JSON, then stream if asked), time
 * the first token, then run the parts that need a svc of their own, and return the report.
 * Children are left to the caller's `ChildSet` to stop.
 */
export async function runBench(options: BenchOptions, root: string, children: ChildSet): Promise<BenchReport> {
  const machine = machineInfo(root); // before pinning narrows this process's CPU set
  // In-process and single-threaded: first, while no child process competes for the CPUs.
  const router = options.router ? routerPart() : undefined;
  const semantic = options.semantic ? await semanticPart() : undefined;
  const inProcess = { ...(router ? { router } : {}), ...(semantic ? { semantic } : {}) };
  if (!needsProcesses(options)) {
    return { machine, settings: settingsOf(options, 'not pinned (in-process measurement only)', root), measurements: [], skipped: {}, notes: [], ...inProcess };
  }
  const place = placement(options.pin);
  log(`CPU placement: ${place.description}`);
  const mock = await startMockChild(children, { root, tokens: options.tokens, cpus: place.rest });
  log(`mock upstream at ${mock.url} (pid ${mock.child.pid})`);
  const http: HttpContext = { options, root, children, mock, gatewayCpus: place.gateway, log };
  const runs = await runHttp(http);
  const ttft = await ttftPart(http, runs);
  if (runs.otlp) runs.notes.push(otlpNote(runs.otlp));
  // The main gateways are done; stop them so each later part's svc has the gateway CPU to itself.
  for (const target of runs.targets) if (target.name !== 'direct') await children.stopPid(target.pid);
  const later = await laterParts({ options, root, children, mockUrl: mock.url, mockPid: mock.child.pid, cpus: place.gateway, log });
  for (const [name, reason] of Object.entries(runs.skipped)) log(`${name} NOT measured: ${reason}`);
  return {
    machine,
    settings: settingsOf(options, place.description, root),
    measurements: runs.measurements,
    skipped: runs.skipped,
    notes: runs.notes,
    ...inProcess,
    ...(ttft ? { ttft } : {}),
    ...later,
    processes: children.gatewayMemory(),
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
    settleSec: options.settleSec,
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
