import { ratio } from './compare.js';
import type { Measurement } from './measure.js';

/**
 * The request kinds of the cache part, in run order: `hit` is one fixed body in `full` mode
 * (stored by a first request), `miss` unique bodies in `full` mode (nothing can hit), `cacheOff`
 * the same unique bodies in `full` mode with `svc.enable_cache: false` (no cache stage, the rest of
 * full mode unchanged), `proxy` the same unique bodies with `x-intelligence-mode: proxy`.
 */
export const CACHE_VARIANTS = ['hit', 'miss', 'cacheOff', 'proxy'] as const;
export type CacheVariant = (typeof CACHE_VARIANTS)[number];

/** svc's cache counters over one measured run (differences of `GET /v1/observability/cache/stats`). */
export interface CacheCounts {
  /** Requests that reached the cache stage. */
  requests: number;
  l0Hits: number;
  l1Hits: number;
  semanticHits: number;
  /** Requests no layer answered. */
  misses: number;
  semanticLookups: number;
}

/** One measured run of one request kind. */
export interface CacheRun {
  variant: CacheVariant;
  measurement: Measurement;
  /** Undefined when the stats endpoint did not answer. */
  cache: CacheCounts | undefined;
  /**
   * Entries in svc's semantic store when the run ended: answers stored since svc started (one
   * per semantic miss), capped at the store's capacity. Estimated, the in-process store has no count.
   */
  semanticEntries: number | undefined;
}

/** The request kinds under one load shape, back to back on one svc process. */
export interface CacheScenario {
  connections: number;
  rate?: number;
  runs: Partial<Record<CacheVariant, CacheRun>>;
}

/** What the cache part produced; also part of the JSON results file. */
export interface CacheBenchReport {
  /** The model every request pins. */
  model: string;
  /** svc's semantic store capacity (`SVC_SEMANTIC_MAX_ENTRIES` as the gateway reads it, see semantic-capacity.ts). */
  semanticCapacity: number;
  scenarios: CacheScenario[];
  /** Why a part could not be measured. */
  skipped: string[];
}

/** Differences and ratios of one scenario; undefined where a run is missing. */
export interface CacheFigures {
  /** hit ÷ miss: latency and CPU below 1 and req/s above 1 mean the hit is cheaper. */
  hitVsMiss: { p50: number | undefined; p99: number | undefined; rps: number | undefined; cpu: number | undefined };
  /** miss − cacheOff: what the cache stage adds to a miss (keying, L0/L1 lookup, semantic embed + search, storing). */
  cacheStage: Difference | undefined;
  /** miss − proxy: a `full`-mode miss against the same request in `proxy` mode. */
  missVsProxy: Difference | undefined;
}

/** `a − b` of two runs: latency in ms, CPU in µs per request. */
export interface Difference {
  p50Ms: number;
  p99Ms: number;
  cpuUs: number;
}

function difference(a: CacheRun | undefined, b: CacheRun | undefined): Difference | undefined {
  if (!a || !b) return undefined;
  const [x, y] = [a.measurement, b.measurement];
  return {
    p50Ms: x.load.latency.p50 - y.load.latency.p50,
    p99Ms: x.load.latency.p99 - y.load.latency.p99,
    cpuUs: x.cpuUsPerRequest - y.cpuUsPerRequest,
  };
}

/** The figures the cache section reports for one scenario. */
export function cacheFigures(s: CacheScenario): CacheFigures {
  const { hit, miss, cacheOff, proxy } = s.runs;
  const h = hit?.measurement;
  const m = miss?.measurement;
  return {
    hitVsMiss: {
      p50: ratio(h?.load.latency.p50, m?.load.latency.p50),
      p99: ratio(h?.load.latency.p99, m?.load.latency.p99),
      rps: ratio(h?.load.rps, m?.load.rps),
      cpu: ratio(h?.cpuUsPerRequest, m?.cpuUsPerRequest),
    },
    cacheStage: difference(miss, cacheOff),
    missVsProxy: difference(miss, proxy),
  };
}

/** `after − before` of two cache stat readings. */
export function countsBetween(before: CacheCounts, after: CacheCounts): CacheCounts {
  return {
    requests: after.requests - before.requests,
    l0Hits: after.l0Hits - before.l0Hits,
    l1Hits: after.l1Hits - before.l1Hits,
    semanticHits: after.semanticHits - before.semanticHits,
    misses: after.misses - before.misses,
    semanticLookups: after.semanticLookups - before.semanticLookups,
  };
}

/** Share of the cache stage's requests answered by any layer; undefined when none reached it. */
export function hitRate(c: CacheCounts | undefined): number | undefined {
  if (!c || c.requests <= 0) return undefined;
  return (c.l0Hits + c.l1Hits + c.semanticHits) / c.requests;
}

/** A JSON chat body asking `question`; `cacheOff` adds `svc.enable_cache: false`. */
export function cacheBody(model: string, question: string, cacheOff = false): string {
  return JSON.stringify({
    model,
    messages: [{ role: 'user', content: question }],
    ...(cacheOff ? { svc: { enable_cache: false } } : {}),
  });
}
