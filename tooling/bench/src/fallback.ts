import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Measurement, measure, upstreamCounts } from './measure.js';
import type { PartContext } from './part-context.js';
import { startSvcProcess, svcTarget } from './svc-target.js';
import type { Target } from './target.js';
import { verifyTarget } from './verify.js';

/** The provider whose upstream fails (every request with its key answers 503). */
export const FAILING_PROVIDER = 'groq';
/** The provider of the same family that answers. */
export const HEALTHY_PROVIDER = 'together';
/** API keys svc sends upstream; the mock fails by credential, so one mock plays both providers. */
export const FAILING_KEY = 'groq-key';
export const HEALTHY_KEY = 'together-key';
/** The status the failing provider answers. */
export const FALLBACK_FAULT = '503';

/** The catalog fields the bench reads. */
export interface CatalogModel {
  id: string;
  provider: string;
  family: string;
  kind: string;
}

/** The pinned model that fails over, and the same-family model that answers. */
export interface FallbackPair {
  /** `groq/...`: pinned by the fallback requests; its upstream answers 503. */
  failingModel: string;
  /** `together/...`: the fallback, and what the normal requests pin directly. */
  healthyModel: string;
}

/** The first `groq/...` chat model whose family has a `together/...` chat member, in catalog order. */
export function fallbackPair(models: readonly CatalogModel[]): FallbackPair | undefined {
  for (const failing of models) {
    if (failing.provider !== FAILING_PROVIDER || failing.kind !== 'chat') continue;
    const healthy = models.find(
      (m) => m.provider === HEALTHY_PROVIDER && m.kind === 'chat' && m.family === failing.family,
    );
    if (healthy) return { failingModel: failing.id, healthyModel: healthy.id };
  }
  return undefined;
}

/** Read `builtInModels` from the built `@svc/catalog` (the bench has no build-time dependency on it). */
async function loadCatalog(root: string): Promise<readonly CatalogModel[] | string> {
  const path = join(root, 'packages/catalog/dist/index.js');
  try {
    const mod = (await import(pathToFileURL(path).href)) as { builtInModels?: readonly CatalogModel[] };
    return mod.builtInModels ?? `${path} exports no builtInModels`;
  } catch (error) {
    return `cannot load ${path} (build it: npx turbo run build --filter=@svc/server...): ${error instanceof Error ? error.message : String(error)}`;
  }
}

/** One scenario of the fallback comparison: the same load on normal and on fallback requests. */
export interface FallbackResult {
  /** Which svc: `default settings`, or the `--fallback-env` variables it was started with. */
  variant: string;
  connections: number;
  stream: boolean;
  rate?: number;
  /** Requests pinning the healthy model: one upstream call that succeeds. */
  normal: Measurement;
  /** Requests pinning the failing model: a failed attempt (or a breaker skip) then the fallback. */
  fallback: Measurement;
}

/** What `--fallback` produced; also part of the JSON results file. */
export interface FallbackReport {
  pair: FallbackPair | undefined;
  failingProvider: string;
  healthyProvider: string;
  fault: string;
  results: FallbackResult[];
  /** Why a variant (or the whole scenario) could not be measured. */
  skipped: string[];
}

/** Derived per-scenario figures: the difference and how many failed attempts each request made. */
export interface FallbackFigures {
  addedP50Ms: number;
  addedP99Ms: number;
  addedCpuUs: number;
  /** Mock faults per fallback response during the measured run: 1 = every request tried the failing provider. */
  failedAttemptsPerRequest: number | undefined;
  /** Mock requests per response (normal / fallback). */
  upstreamCallsPerRequest: { normal: number | undefined; fallback: number | undefined };
}

/** `count` per response of `m`; undefined without a count or responses. */
export function perResponse(count: number | undefined, m: Measurement): number | undefined {
  return count === undefined || m.load.responses === 0 ? undefined : count / m.load.responses;
}

/** Fallback minus normal, and the upstream counts per request. */
export function fallbackFigures(r: FallbackResult): FallbackFigures {
  return {
    addedP50Ms: r.fallback.load.latency.p50 - r.normal.load.latency.p50,
    addedP99Ms: r.fallback.load.latency.p99 - r.normal.load.latency.p99,
    addedCpuUs: r.fallback.cpuUsPerRequest - r.normal.cpuUsPerRequest,
    failedAttemptsPerRequest: perResponse(r.fallback.upstreamFaults, r.fallback),
    upstreamCallsPerRequest: {
      normal: perResponse(r.normal.upstreamRequests, r.normal),
      fallback: perResponse(r.fallback.upstreamRequests, r.fallback),
    },
  };
}

/** What the failed-attempt count says about the breaker of the failing model. */
export function breakerReading(failedAttemptsPerRequest: number | undefined): string {
  if (failedAttemptsPerRequest === undefined) return 'unknown';
  if (failedAttemptsPerRequest >= 0.95) return 'closed: every request made the failed attempt';
  if (failedAttemptsPerRequest <= 0.05) return 'open: the failing provider was skipped, not called';
  return 'partly open';
}

/** Send one request and check the mock saw exactly `calls` requests of which `faults` failed. */
async function verifyUpstream(
  target: Target,
  stream: boolean,
  mockUrl: string,
  expected: { calls: number; faults: number },
): Promise<string | undefined> {
  const before = await upstreamCounts(mockUrl);
  const problem = await verifyTarget(target, stream);
  if (problem) return problem;
  const after = await upstreamCounts(mockUrl);
  const calls = after.total - before.total;
  const faults = after.faults - before.faults;
  if (calls !== expected.calls || faults !== expected.faults) {
    return `expected ${expected.calls} upstream call(s) with ${expected.faults} failure(s) for one request, the mock saw ${calls} with ${faults}`;
  }
  return undefined;
}


/**
 * Teach the mock to fail the failing provider's key, start svc with both providers on the mock
 * (once with default settings, once more with `--fallback-env` when given) and measure, per
 * connection count and stream mode, requests pinning the healthy model (normal) and requests
 * pinning the failing one (failed attempt + fallback), back to back on the same process.
 */
export async function runFallback(ctx: PartContext): Promise<FallbackReport> {
  const { options, log } = ctx;
  const report: FallbackReport = {
    pair: undefined,
    failingProvider: FAILING_PROVIDER,
    healthyProvider: HEALTHY_PROVIDER,
    fault: FALLBACK_FAULT,
    results: [],
    skipped: [],
  };
  const models = await loadCatalog(ctx.root);
  if (typeof models === 'string') {
    report.skipped.push(models);
    return report;
  }
  const pair = fallbackPair(models);
  if (!pair) {
    report.skipped.push(`no ${FAILING_PROVIDER} chat model in the catalog has a ${HEALTHY_PROVIDER} model of its family`);
    return report;
  }
  report.pair = pair;
  const configured = await fetch(`${ctx.mockUrl}/__mock/configure`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ faultKeys: { [FAILING_KEY]: FALLBACK_FAULT } }),
  });
  if (configured.status !== 204) {
    report.skipped.push(`the mock upstream refused faultKeys (status ${configured.status}); is it built from this tree?`);
    return report;
  }
  const variants: { label: string; env: Record<string, string> }[] = [{ label: 'default settings', env: {} }];
  const extra = Object.entries(options.fallbackEnv);
  if (extra.length > 0) {
    variants.push({ label: extra.map(([k, v]) => `${k}=${v}`).join(' '), env: options.fallbackEnv });
  }
  const providerEnv = {
    GROQ_API_KEY: FAILING_KEY,
    GROQ_BASE_URL: `${ctx.mockUrl}/v1`,
    TOGETHER_API_KEY: HEALTHY_KEY,
    TOGETHER_BASE_URL: `${ctx.mockUrl}/v1`,
  };
  for (const variant of variants) {
    log(`fallback (${variant.label}): starting svc with ${FAILING_PROVIDER} (answers ${FALLBACK_FAULT}) and ${HEALTHY_PROVIDER}...`);
    const started = await startSvcProcess(ctx.children, {
      root: ctx.root,
      mockUrl: ctx.mockUrl,
      cpus: ctx.cpus,
      providerEnv,
      extraEnv: variant.env,
      label: `svc (fallback, ${variant.label})`,
    });
    if (!started.ok) {
      report.skipped.push(`${variant.label}: ${started.reason}`);
      continue;
    }
    const normal = svcTarget(started.svc, pair.healthyModel);
    const fallback = svcTarget(started.svc, pair.failingModel);
    for (const stream of options.stream ? [false, true] : [false]) {
      // Verify before any load: the first fallback request must make exactly one failed attempt.
      // (The stream runs come after the JSON ones, when the breaker may be open: answer check only.)
      const problem =
        (await verifyUpstream(normal, stream, ctx.mockUrl, { calls: 1, faults: 0 })) ??
        (stream
          ? await verifyTarget(fallback, stream)
          : await verifyUpstream(fallback, stream, ctx.mockUrl, { calls: 2, faults: 1 }));
      if (problem) {
        report.skipped.push(`${variant.label}, ${stream ? 'stream' : 'JSON'}: ${problem}`);
        continue;
      }
      for (const connections of options.connections) {
        const spec = {
          connections,
          durationSec: options.durationSec,
          warmupSec: options.warmupSec,
          stream,
          upstreamPid: ctx.mockPid,
          upstreamStatsUrl: ctx.mockUrl,
          ...(options.rate === undefined ? {} : { rate: options.rate }),
        };
        const pairResult: Partial<Record<'normal' | 'fallback', Measurement>> = {};
        for (const [kind, target] of [['normal', normal], ['fallback', fallback]] as const) {
          log(`svc ${kind} (${variant.label}) ${stream ? 'stream' : 'JSON'} c=${connections}: warm-up ${options.warmupSec}s + ${options.durationSec}s`);
          const m = await measure(target, spec);
          log(`  ${m.load.rps.toFixed(0)} req/s, p50 ${m.load.latency.p50.toFixed(2)} ms, p99 ${m.load.latency.p99.toFixed(2)} ms, ${m.cpuUsPerRequest.toFixed(0)} µs CPU/req, upstream ${m.upstreamRequests} calls / ${m.upstreamFaults} faults, failed ${m.load.non2xx + m.load.errors}`);
          pairResult[kind] = m;
        }
        if (pairResult.normal && pairResult.fallback) {
          report.results.push({
            variant: variant.label,
            connections,
            stream,
            ...(options.rate === undefined ? {} : { rate: options.rate }),
            normal: pairResult.normal,
            fallback: pairResult.fallback,
          });
        }
      }
    }
    await ctx.children.stopPid(started.svc.pid);
  }
  return report;
}
