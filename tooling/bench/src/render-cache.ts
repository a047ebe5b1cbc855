import { type CacheBenchReport, type CacheRun, type CacheVariant, CACHE_VARIANTS, cacheFigures, type Difference, hitRate } from './cache-figures.js';
import type { MachineInfo } from './machine.js';
import { fmt, runLine, signed, times } from './render-format.js';
import type { SemanticCost, TimedStep } from './semantic-cost.js';

/** How the report names each request kind. */
export const variantLabels: Record<CacheVariant, string> = {
  hit: 'exact hit (`full`, one stored body)',
  miss: 'miss (`full`, unique bodies)',
  cacheOff: '`full` + `enable_cache: false`, unique bodies',
  proxy: '`proxy`, unique bodies',
};

/** Load settings the cache section states. */
export interface CacheLoadSettings {
  durationSec: number;
  warmupSec: number;
  tokens: number;
  rate?: number;
  pinning: string;
}

function scenarioName(connections: number, rate?: number): string {
  return `JSON, ${connections} conn${rate === undefined ? '' : ` @ ${rate} req/s`}`;
}

function perResponse(count: number | undefined, run: CacheRun): string {
  const responses = run.measurement.load.responses;
  return count === undefined || responses === 0 ? '–' : fmt(count / responses);
}

function runRow(name: string, run: CacheRun): string {
  const m = run.measurement;
  const rate = hitRate(run.cache);
  const entries = run.variant === 'miss' && run.semanticEntries !== undefined ? run.semanticEntries.toLocaleString('en-US') : '';
  return `| ${name} | ${variantLabels[run.variant]} | ${fmt(m.load.rps, 0)} | ${fmt(m.load.latency.p50)} | ${fmt(m.load.latency.p99)} | ${fmt(m.cpuUsPerRequest, 0)} | ${perResponse(m.upstreamRequests, run)} | ${rate === undefined ? '–' : `${fmt(rate * 100, 1)}%`} | ${entries} | ${m.load.non2xx + m.load.errors} |`;
}

function differenceCells(d: Difference | undefined): string {
  return d === undefined ? '– | – | –' : `${signed(d.p50Ms)} | ${signed(d.p99Ms)} | ${signed(d.cpuUs, 0)}`;
}

/** The HTTP runs: one row per kind and scenario, then the differences and ratios per scenario. */
export function renderCacheRuns(report: CacheBenchReport): string {
  const lines = [
    '| scenario | requests | req/s | p50 ms | p99 ms | CPU µs/req | upstream calls/req | cache hit rate | semantic entries | failed |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const s of report.scenarios) {
    for (const variant of CACHE_VARIANTS) {
      const run = s.runs[variant];
      if (run) lines.push(runRow(scenarioName(s.connections, s.rate), run));
    }
  }
  lines.push(
    '',
    '| scenario | hit ÷ miss: p50 | p99 | req/s | CPU/req | cache stage (miss − `enable_cache: false`): p50 ms | p99 ms | CPU µs/req | miss − `proxy`: p50 ms | p99 ms | CPU µs/req |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  );
  for (const s of report.scenarios) {
    const f = cacheFigures(s);
    const h = f.hitVsMiss;
    lines.push(`| ${scenarioName(s.connections, s.rate)} | ${times(h.p50)} | ${times(h.p99)} | ${times(h.rps)} | ${times(h.cpu)} | ${differenceCells(f.cacheStage)} | ${differenceCells(f.missVsProxy)} |`);
  }
  return lines.join('\n');
}

const stepCells = (t: TimedStep): string => `${fmt(t.wall.p50, 1)} | ${fmt(t.wall.p99, 1)} | ${fmt(t.cpuUs, 1)}`;

/** The in-process semantic cache: the embedding, then the lookup after it and with it, per store size. */
export function renderSemanticCost(s: SemanticCost, machine: MachineInfo): string {
  const decision = s.verifierThreshold === null ? `threshold ${fmt(s.threshold, 3)}` : `candidates from cosine ${fmt(s.threshold, 3)}, verifier at ${fmt(s.verifierThreshold, 3)}`;
  return [
    runLine(machine),
    '',
    `\`SemanticCache\` in process as the gateway builds it by default: embedder \`${s.embedder}\` (${s.dimensions} dimensions, ${decision}), in-process store bounded at the entry count and filled with that many questions of one organisation and scope (every entry is a search candidate), then new questions looked up one by one (all miss): with the request's embedding given (what the cache adds to the pipeline's one embedding), and embedding the question itself; then their answers stored into the full store (one eviction each). Memory held: the process's V8 heap in use plus array buffers and the store's WebAssembly memory after a full collection, filled store minus before. CPU is this process's (every thread, the encoder's too) per call; wall times include waiting for the CPU on a shared machine. Embedding one question alone: p50 ${fmt(s.embed.wall.p50, 1)} µs, p99 ${fmt(s.embed.wall.p99, 1)} µs, ${fmt(s.embed.cpuUs, 1)} µs CPU.`,
    '',
    '| entries | lookups | hits | lookup after the embedding: p50 µs | p99 µs | CPU µs | lookup with the embedding: p50 µs | p99 µs | CPU µs | store p50 µs | store p99 µs | memory held, MB |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...s.rows.map(
      (r) =>
        `| ${r.entries.toLocaleString('en-US')} | ${r.lookups.toLocaleString('en-US')} | ${r.hits} | ${stepCells(r.search)} | ${stepCells(r.lookup)} | ${fmt(r.store.p50, 1)} | ${fmt(r.store.p99, 1)} | ${fmt(r.heldBytes / 1e6, 1)} |`,
    ),
  ].join('\n');
}

/** The answer-cache section of docs/benchmarks.md (`--only cache`). */
export function renderCache(report: CacheBenchReport, machine: MachineInfo, settings: CacheLoadSettings): string {
  const lines = [runLine(machine), ''];
  if (report.scenarios.length > 0) {
    lines.push(
      `svc with its default caches (\`full\` mode: exact L0 + L1 in the embedded kv, semantic cache over the in-process store of ${report.semanticCapacity.toLocaleString('en-US')} entries), requests pinning \`${report.model}\` on the mock (${settings.tokens} tokens, no added latency). Per connection count the four kinds run back to back on one svc process: autocannon ${settings.rate === undefined ? 'closed loop' : `at most ${settings.rate} requests/s`}, ${settings.durationSec} s after ${settings.warmupSec} s warm-up each; every request's body is built by autocannon's \`setupRequest\` in all four, so the load generator does the same work. CPU placement: ${settings.pinning}. Upstream calls/req are the mock's counts over the measured run; hit rate and semantic entries come from \`GET /v1/observability/cache/stats\` (entries: answers stored since start, capped at the capacity).`,
      '',
      renderCacheRuns(report),
    );
  }
  if (report.skipped.length > 0) lines.push('', ...report.skipped.map((reason) => `- **cache runs not measured:** ${reason}`));
  return lines.join('\n');
}
