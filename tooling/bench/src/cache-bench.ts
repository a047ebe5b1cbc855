import { setTimeout as sleep } from 'node:timers/promises';
import {
  type CacheBenchReport,
  type CacheCounts,
  type CacheRun,
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
async function verifyKinds(targets: Record<CacheVariant, Target>, svc: SvcProcess, mockUrl: string): Promise<string | undefined> {
  const expectUpstream = async (variant: CacheVariant, cacheRequests: number): Promise<string | undefined> => {
    const p = await probe(targets[variant], svc, mockUrl);
    if (p.problem) return `${variant}: ${p.problem}`;
    if (p.upstreamCalls !== 1) return `${variant}: expected one upstream call for one request, the mock saw ${p.upstreamCalls}`;
    if (p.cache && p.cache.requests !== cacheRequests) return `${variant}: expected ${cacheRequests} request(s) at the cache stage, its stats counted ${p.cache.requests}`;
    return undefined;
  };
  const first = await expectUpstream('hit', 1);
  if (first) return `${first} (the first request of the hit body must go upstream and be stored)`;
  let last: Probe | undefined;
  for (let attempt = 0; attempt < 20; attempt++) {
    last = await probe(targets.hit, svc, mockUrl);
    if (last.problem) return `hit: ${last.problem}`;
    if (last.upstreamCalls === 0 && (!last.cache || answered(last.cache) === 1)) break;
    await sleep(50); // storing is fire and forget: give it a moment
  }
  if (last?.upstreamCalls !== 0) {
    return `hit: the stored body still went upstream (${last?.upstreamCalls ?? '?'} call(s)); is the exact cache on (SVC_CACHE_TTL_SECS)?`;
  }
  return (await expectUpstream('miss', 1)) ?? (await expectUpstream('cacheOff', 0)) ?? (await expectUpstream('proxy', 0));
}

/** Everything the cache part needs from the main run. */
export type CacheBenchContext = PartContext;

/**
 * Start a fresh svc (default settings: `full` mode, exact cache and in-process semantic cache on)
 * and measure, per connection count, back to back: one stored body (exact hits), unique bodies in
 * `full` mode (misses), the same with `svc.enable_cache: false` and in proxy mode. Every kind builds
 * each request's body through autocannon's `setupRequest`, so the load generator does the same work.
 */
export async function runCacheBench(ctx: CacheBenchContext): Promise<CacheBenchReport> {
  const { options, log } = ctx;
  const report: CacheBenchReport = {
    model: SVC_MODEL,
    semanticCapacity: semanticCapacity(),
    scenarios: [],
    skipped: [],
  };
  log('cache: starting svc with its default caches...');
  const started = await startSvcProcess(ctx.children, { root: ctx.root, mockUrl: ctx.mockUrl, cpus: ctx.cpus });
  if (!started.ok) {
    report.skipped.push(started.reason);
    return report;
  }
  const svc = started.svc;
  let next = 1;
  const unique = (cacheOff: boolean) => () => cacheBody(SVC_MODEL, cacheQuestion(next++), cacheOff);
  const hitBody = cacheBody(SVC_MODEL, cacheQuestion(0));
  const full = svcTarget(svc, SVC_MODEL, 'full');
  const targets: Record<CacheVariant, Target> = {
    hit: { ...full, body: () => hitBody, bodyPerRequest: true },
    miss: { ...full, body: unique(false), bodyPerRequest: true },
    cacheOff: { ...full, body: unique(true), bodyPerRequest: true },
    proxy: { ...svcTarget(svc, SVC_MODEL, 'proxy'), body: unique(false), bodyPerRequest: true },
  };
  const problem = await verifyKinds(targets, svc, ctx.mockUrl);
  if (problem) {
    report.skipped.push(problem);
    await ctx.children.stopPid(svc.pid);
    return report;
  }
  for (const connections of options.connections) {
    const scenario: CacheScenario = { connections, ...(options.rate === undefined ? {} : { rate: options.rate }), runs: {} };
    const spec = {
      connections,
      durationSec: options.durationSec,
      warmupSec: options.warmupSec,
      stream: false,
      upstreamPid: ctx.mockPid,
      upstreamStatsUrl: ctx.mockUrl,
      ...(options.rate === undefined ? {} : { rate: options.rate }),
    };
    for (const variant of CACHE_VARIANTS) {
      const target = targets[variant];
      log(`cache ${variant} c=${connections}: warm-up ${options.warmupSec}s + ${options.durationSec}s`);
      await warmUp(target, spec);
      const before = await cacheStats(svc);
      const measurement = await measure(target, { ...spec, warmupSec: 0 });
      const after = await cacheStats(svc);
      const cache = before && after ? countsBetween(before, after) : undefined;
      const run: CacheRun = {
        variant,
        measurement,
        cache,
        semanticEntries: after ? Math.min(report.semanticCapacity, after.semanticLookups - after.semanticHits) : undefined,
      };
      scenario.runs[variant] = run;
      const m = measurement;
      log(
        `  ${m.load.rps.toFixed(0)} req/s, p50 ${m.load.latency.p50.toFixed(2)} ms, p99 ${m.load.latency.p99.toFixed(2)} ms, ${m.cpuUsPerRequest.toFixed(0)} µs CPU/req, upstream ${m.upstreamRequests} calls, cache ${cache ? `${answered(cache)} hits / ${cache.misses} misses of ${cache.requests}` : 'stats unavailable'}, failed ${m.load.non2xx + m.load.errors}`,
      );
    }
    report.scenarios.push(scenario);
  }
  await ctx.children.stopPid(svc.pid);
  return report;
}
