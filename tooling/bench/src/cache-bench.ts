import { setTimeout as sleep } from 'node:timers/promises';
import {
  type CacheBenchReport,
  type CacheCounts,
  type CacheScenario,
  CACHE_VARIANTS,
  type CacheVariant,
  cacheBody,
  countsBetween,
} from './cache-figures.js';
import { cacheQuestion } from './cache-questions.js';
import { measure, upstreamCounts, warmUp } from './measure.js';
import type { PartContext } from './part-context.js';
import { SVC_MODEL, type SvcProcess, startSvcProcess, svcTarget } from './svc-target.js';
import type { Target } from './target.js';
import { verifyTarget } from './verify.js';
import { semanticCapacity } from './semantic-capacity.js';


/** The fields of `GET /v1/observability/cache/stats` the bench reads. */
interface CacheStatsWire {
  requests?: number;
  hits?: { l0?: number; l1?: number; semantic?: number };
  misses?: number;
  by_type?: { semantic?: { lookups?: number } };
}

/** svc's cache counters since it started, or undefined when the control plane does not answer. */
async function cacheStats(svc: SvcProcess): Promise<CacheCounts | undefined> {
  try {
    const res = await fetch(`${svc.control}/v1/observability/cache/stats`, { headers: { authorization: `Bearer ${svc.masterKey}` } });
    if (res.status !== 200) return undefined;
    const s = (await res.json()) as CacheStatsWire;
    return {
      requests: s.requests ?? 0,
      l0Hits: s.hits?.l0 ?? 0,
      l1Hits: s.hits?.l1 ?? 0,
      semanticHits: s.hits?.semantic ?? 0,
      misses: s.misses ?? 0,
      semanticLookups: s.by_type?.semantic?.lookups ?? 0,
    };
  } catch {
    return undefined;
  }
}

/** What one verification request did upstream and in the cache. */
interface Probe {
  problem: string | undefined;
  upstreamCalls: number;
  cache: CacheCounts | undefined;
}

async function probe(target: Target, svc: SvcProcess, mockUrl: string): Promise<Probe> {
  const [upBefore, cacheBefore] = [await upstreamCounts(mockUrl), await cacheStats(svc)];
  const problem = await verifyTarget(target, false);
  const [upAfter, cacheAfter] = [await upstreamCounts(mockUrl), await cacheStats(svc)];
  return {
    problem,
    upstreamCalls: upAfter.total - upBefore.total,
    cache: cacheBefore && cacheAfter ? countsBetween(cacheBefore, cacheAfter) : undefined,
  };
}

const answered = (c: CacheCounts | undefined): number => (c ? c.l0Hits + c.l1Hits + c.semanticHits : 0);

/**
 * One request per kind, checked against the mock's and the cache's counters: the hit body is
 * stored by its first request and then answered without an upstream call; a unique body in
 * `full` mode reaches the cache and goes upstream; `enable_cache: false` and proxy mode go
 * upstream without reaching the cache. Resolves undefined when all hold, else the first problem.
 */
async function verifyKinds(targets: Record<CacheVariant, Target>, kinds: readonly CacheVariant[], svc: SvcProcess, mockUrl: string): Promise<string | undefined> {
  const expectUpstream = async (variant: CacheVariant, cacheRequests: number): Promise<string | undefined> => {
    if (!kinds.includes(variant)) return undefined;
    const p = await probe(targets[variant], svc, mockUrl);
    if (p.problem) return `${variant}: ${p.problem}`;
    if (p.upstreamCalls !== 1) return `${variant}: expected one upstream call for one request, the mock saw ${p.upstreamCalls}`;
    if (p.cache && p.cache.requests !== cacheRequests) return `${variant}: expected ${cacheRequests} request(s) at the cache stage, its stats counted ${p.cache.requests}`;
    return undefined;
  };
  const hit = kinds.includes('hit') ? await verifyHit(targets.hit, svc, mockUrl, expectUpstream) : undefined;
  return hit ?? (await expectUpstream('miss', 1)) ?? (await expectUpstream('cacheOff', 0)) ?? (await expectUpstream('proxy', 0));
}

async function verifyHit(
  hit: Target,
  svc: SvcProcess,
  mockUrl: string,
  expectUpstream: (variant: CacheVariant, cacheRequests: number) => Promise<string | undefined>,
): Promise<string | undefined> {
  const first = await expectUpstream('hit', 1);
  if (first) return `${first} (the first request of the hit body must go upstream and be stored)`;
  let last: Probe | undefined;
  for (let attempt = 0; attempt < 20; attempt++) {
    last = await probe(hit, svc, mockUrl);
    if (last.problem) return `hit: ${last.problem}`;
    if (last.upstreamCalls === 0 && (!last.cache || answered(last.cache) === 1)) break;
    await sleep(50); // storing is fire and forget: give it a moment
  }
  if (last?.upstreamCalls !== 0) {
    return `hit: the stored body still went upstream (${last?.upstreamCalls ?? '?'} call(s)); is the exact cache on (SVC_CACHE_TTL_SECS)?`;
  }
  return undefined;
}

/** Everything the cache part needs from the main run. */
export type CacheBenchContext = PartContext;

/** Which svc the cache part loads: its shipped defaults, or a labelled variant (the production stores). */
export interface CacheBenchVariant {
  /** How the report names the process. */
  label: string;
  /** Variables the svc is started with on top of the bench's (e.g. `DATABASE_URL`, `REDIS_URL`). */
  extraEnv?: Record<string, string>;
  /** The request kinds to run (default all of {@link CACHE_VARIANTS}). */
  kinds?: readonly CacheVariant[];
  /**
   * The first question number (default 0): a shared Redis keeps the answers of earlier runs, so a
   * run on it starts where no earlier run's questions are.
   */
  firstQuestion?: number;
}

/** A started svc of the cache part and what to load it with. */
interface LoadedSvc {
  ctx: CacheBenchContext;
  svc: SvcProcess;
  targets: Record<CacheVariant, Target>;
  kinds: readonly CacheVariant[];
  semanticCapacity: number;
}

/** Every kind at one connection count, back to back, each with its cache counters over the measured run. */
async function measureScenario(loaded: LoadedSvc, connections: number): Promise<CacheScenario> {
  const { options, log } = loaded.ctx;
  const scenario: CacheScenario = { connections, ...(options.rate === undefined ? {} : { rate: options.rate }), runs: {} };
  const spec = {
    connections,
    durationSec: options.durationSec,
    warmupSec: options.warmupSec,
    stream: false,
    upstreamPid: loaded.ctx.mockPid,
    upstreamStatsUrl: loaded.ctx.mockUrl,
    ...(options.rate === undefined ? {} : { rate: options.rate }),
  };
  for (const kind of loaded.kinds) {
    const target = loaded.targets[kind];
    log(`cache ${kind} c=${connections}: warm-up ${options.warmupSec}s + ${options.durationSec}s`);
    await warmUp(target, spec);
    const before = await cacheStats(loaded.svc);
    const measurement = await measure(target, { ...spec, warmupSec: 0 });
    const after = await cacheStats(loaded.svc);
    const cache = before && after ? countsBetween(before, after) : undefined;
    scenario.runs[kind] = {
      variant: kind,
      measurement,
      cache,
      semanticEntries: after ? Math.min(loaded.semanticCapacity, after.semanticLookups - after.semanticHits) : undefined,
    };
    const m = measurement;
    log(
      `  ${m.load.rps.toFixed(0)} req/s, p50 ${m.load.latency.p50.toFixed(2)} ms, p99 ${m.load.latency.p99.toFixed(2)} ms, ${m.cpuUsPerRequest.toFixed(0)} µs CPU/req, upstream ${m.upstreamRequests} calls, cache ${cache ? `${answered(cache)} hits / ${cache.misses} misses of ${cache.requests}` : 'stats unavailable'}, failed ${m.load.non2xx + m.load.errors}`,
    );
  }
  return scenario;
}

/**
 * Start a fresh svc (default settings: `full` mode, exact cache and in-process semantic cache on)
 * and measure, per connection count, back to back: one stored body (exact hits), unique bodies in
 * `full` mode (misses), the same with `svc.enable_cache: false` and in proxy mode. Every kind builds
 * each request's body through autocannon's `setupRequest`, so the load generator does the same work.
 */
export async function runCacheBench(ctx: CacheBenchContext, variant: CacheBenchVariant = { label: 'svc (answer-cache part)' }): Promise<CacheBenchReport> {
  const { options, log } = ctx;
  const kinds = variant.kinds ?? CACHE_VARIANTS;
  const report: CacheBenchReport = {
    model: SVC_MODEL,
    semanticCapacity: semanticCapacity(),
    scenarios: [],
    skipped: [],
  };
  log(`cache: starting ${variant.label}...`);
  const started = await startSvcProcess(ctx.children, { root: ctx.root, mockUrl: ctx.mockUrl, cpus: ctx.cpus, label: variant.label, ...(variant.extraEnv ? { extraEnv: variant.extraEnv } : {}) });
  if (!started.ok) {
    report.skipped.push(started.reason);
    return report;
  }
  const svc = started.svc;
  const first = variant.firstQuestion ?? 0;
  let next = first + 1;
  const unique = (cacheOff: boolean) => () => cacheBody(SVC_MODEL, cacheQuestion(next++), cacheOff);
  const hitBody = cacheBody(SVC_MODEL, cacheQuestion(first));
  const full = svcTarget(svc, SVC_MODEL, 'full');
  const targets: Record<CacheVariant, Target> = {
    hit: { ...full, body: () => hitBody, bodyPerRequest: true },
    miss: { ...full, body: unique(false), bodyPerRequest: true },
    cacheOff: { ...full, body: unique(true), bodyPerRequest: true },
    proxy: { ...svcTarget(svc, SVC_MODEL, 'proxy'), body: unique(false), bodyPerRequest: true },
  };
  const problem = await verifyKinds(targets, kinds, svc, ctx.mockUrl);
  if (problem) {
    report.skipped.push(problem);
    await ctx.children.stopPid(svc.pid);
    return report;
  }
  const loaded: LoadedSvc = { ctx, svc, targets, kinds, semanticCapacity: report.semanticCapacity };
  for (const connections of options.connections) report.scenarios.push(await measureScenario(loaded, connections));
  await ctx.children.stopPid(svc.pid);
  return report;
}
