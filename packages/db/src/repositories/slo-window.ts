import type { SloMetric } from '@svc/core';
import { type SQL, sql } from 'drizzle-orm';

/**
 * The SQL behind `SloRepository.windowStats`: common table expressions over one organisation's
 * decisions (and ledger rows for cost) in a window, aggregated per UTC hour (`whole = 0`) and over
 * the whole window (`whole = 1`) in one pass with GROUPING SETS. Requests are decisions that are
 * not `client_closed` (a client that left is neither a success nor a failure); succeeded ones
 * have outcome `ok`; latencies are of succeeded requests.
 */

const latencyFraction: Partial<Record<SloMetric, number>> = { latency_p50_ms: 0.5, latency_p95_ms: 0.95, latency_p99_ms: 0.99 };

/** `r` (the rows), `d` (decision aggregates) and, for cost, `u` (spend per hour and in total). */
export function sloWindowRows(orgId: string, metric: SloMetric, since: Date, until: Date): SQL {
  const fraction = latencyFraction[metric];
  const latency = fraction === undefined ? sql`NULL::float8` : sql`(percentile_cont(${fraction}::float8) WITHIN GROUP (ORDER BY latency_ms) FILTER (WHERE outcome = 'ok'))::float8`;
  const window = sql`org_id = ${orgId}::uuid AND created_at >= ${since.toISOString()}::timestamptz AND created_at < ${until.toISOString()}::timestamptz`;
  const hour = sql`date_trunc('hour', created_at AT TIME ZONE 'UTC')`;
  const decisions = sql`
    r AS (
      SELECT ${hour} AS slice, outcome, source, latency_ms,
        CASE WHEN jsonb_typeof(attempts) = 'array' THEN jsonb_array_length(attempts) ELSE 0 END AS attempt_count
      FROM routing_decisions WHERE ${window} AND outcome <> 'client_closed'
    ),
    d AS (
      SELECT GROUPING(slice)::int AS whole, slice,
        count(*)::int AS requests,
        count(*) FILTER (WHERE outcome = 'ok')::int AS succeeded,
        count(*) FILTER (WHERE source = 'CacheHit')::int AS cache_hits,
        count(*) FILTER (WHERE attempt_count > 1)::int AS fallbacks,
        ${latency} AS latency
      FROM r GROUP BY GROUPING SETS ((slice), ())
    )`;
  if (metric !== 'cost_per_request_usd') return decisions;
  return sql`${decisions},
    u AS (
      SELECT GROUPING(slice)::int AS whole, slice, sum(cost_usd)::float8 AS cost
      FROM (SELECT ${hour} AS slice, cost_usd FROM usage_events WHERE ${window}) AS spent
      GROUP BY GROUPING SETS ((slice), ())
    )`;
}

/** The metric of one row of `d` (joined to `u` for cost); null where there were no requests (or, for latency, no success). */
export function sloValue(metric: SloMetric): SQL {
  switch (metric) {
    case 'availability':
      return sql`d.succeeded::float8 / nullif(d.requests, 0)`;
    case 'error_rate':
      return sql`(d.requests - d.succeeded)::float8 / nullif(d.requests, 0)`;
    case 'cache_hit_rate':
      return sql`d.cache_hits::float8 / nullif(d.requests, 0)`;
    case 'fallback_rate':
      return sql`d.fallbacks::float8 / nullif(d.requests, 0)`;
    case 'cost_per_request_usd':
      return sql`coalesce(u.cost, 0) / nullif(d.requests, 0)`;
    default:
      return sql`d.latency`;
  }
}
