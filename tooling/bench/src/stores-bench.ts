import { runCacheBench } from './cache-bench.js';
import type { CacheBenchReport } from './cache-figures.js';
import type { PartContext } from './part-context.js';

/** The production-stores rows; also part of the JSON results file. */
export interface StoresReport {
  /** Proxy mode, exact hits and full-mode misses on a svc with `DATABASE_URL` + `REDIS_URL`. */
  cache?: CacheBenchReport;
  skipped: string[];
}

/** How the report names the production-stores svc. */
export const STORES_LABEL = 'svc, production stores (DATABASE_URL + REDIS_URL)';

/** Why the stores rows cannot run, or undefined when both URLs are there. */
export function storesMissing(urls: { databaseUrl?: string; redisUrl?: string }): string | undefined {
  const missing = [urls.databaseUrl ? undefined : 'PostgreSQL (--database-url or BENCH_DATABASE_URL)', urls.redisUrl ? undefined : 'Redis (--redis-url or BENCH_REDIS_URL)'].filter(Boolean);
  return missing.length === 0 ? undefined : `not measured: no ${missing.join(' and no ')} given`;
}

/**
 * svc with the production stores instead of the embedded ones: the answer-cache part's proxy,
 * exact-hit and miss runs on a svc started with `DATABASE_URL` and `REDIS_URL` (nothing else
 * changed). Its questions start at a number of this run, since Redis keeps earlier runs' answers.
 */
export async function runStores(ctx: PartContext): Promise<StoresReport> {
  const { databaseUrl, redisUrl } = ctx.options.storeUrls;
  const missing = storesMissing(ctx.options.storeUrls);
  if (missing || !databaseUrl || !redisUrl) return { skipped: [missing ?? 'not measured'] };
  const cache = await runCacheBench(ctx, {
    label: STORES_LABEL,
    extraEnv: { DATABASE_URL: databaseUrl, REDIS_URL: redisUrl },
    kinds: ['proxy', 'hit', 'miss'],
    firstQuestion: Date.now(),
  });
  return { cache, skipped: cache.skipped };
}
