import { type SQL, sql } from 'drizzle-orm';
import { rowsOf } from './bulk-insert.js';
import { type Drizzle, isUuid } from './drizzle.js';
import { ledgerRequests } from './ledger-requests.js';

/**
 * The dashboard's overview figures, aggregated from the usage ledger in SQL (GROUP BY hour or
 * day, UTC). Named for the dashboard: `/v1/observability/benchmarks` keeps its own per-model
 * daily aggregates. Runs unchanged on PostgreSQL and PGlite; figures are cast in SQL
 * (`::int`, `::float8`) so both drivers hand back plain numbers.
 */

export type DashboardBucket = 'hour' | 'day';

export interface DashboardUsageQuery {
  /** One organisation; omitted = the whole fleet. */
  orgId?: string;
  /** Inclusive; truncated to the start of its bucket. */
  since: Date;
  /** Exclusive; default now. */
  until?: Date;
}

/** Usage figures of one period. Costs are USD, latency milliseconds (of requests that answered 2xx). */
export interface DashboardUsageFigures {
  requests: number;
  /** Requests answered with a status >= 400. */
  errors: number;
  costUsd: number;
  /** What the same requests would have cost on the baseline model. */
  baselineCostUsd: number;
  /** baseline - cost. */
  savingsUsd: number;
  cacheHits: number;
  /** cacheHits / requests; null without requests. */
  cacheHitRate: number | null;
  totalTokens: number;
  latencyP50Ms: number | null;
  latencyP95Ms: number | null;
}

/** One bucket of the series: figures of [start, start + bucket). */
export interface DashboardUsagePoint extends DashboardUsageFigures {
  start: Date;
}

export interface DashboardUsageRepository {
  /** Every bucket from `since` to `until`, empty ones included (zeros, null latency), oldest first. */
  usageSeries(query: DashboardUsageQuery & { bucket: DashboardBucket }): Promise<DashboardUsagePoint[]>;
  /** Totals of [since, until). */
  usageTotals(query: DashboardUsageQuery): Promise<DashboardUsageFigures>;
}

type Row = Record<string, unknown>;

const num = (value: unknown): number => Number(value ?? 0);
const numOrNull = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));

/** Figures over `r`, one row per request ({@link requestsOf}). */
const figureColumns = sql`
  count(r.id)::int AS requests,
  count(r.id) FILTER (WHERE r.status >= 400)::int AS errors,
  coalesce(sum(r.cost_usd), 0)::float8 AS cost_usd,
  coalesce(sum(r.baseline_cost_usd), 0)::float8 AS baseline_cost_usd,
  count(r.id) FILTER (WHERE r.cache_hit)::int AS cache_hits,
  coalesce(sum(r.prompt_tokens + r.completion_tokens), 0)::float8 AS total_tokens,
  (percentile_cont(0.5) WITHIN GROUP (ORDER BY r.latency_ms) FILTER (WHERE r.status < 400))::float8 AS latency_p50_ms,
  (percentile_cont(0.95) WITHIN GROUP (ORDER BY r.latency_ms) FILTER (WHERE r.status < 400))::float8 AS latency_p95_ms`;

function toFigures(row: Row): DashboardUsageFigures {
  const requests = num(row.requests);
  const costUsd = num(row.cost_usd);
  const baselineCostUsd = num(row.baseline_cost_usd);
  const cacheHits = num(row.cache_hits);
  return {
    requests,
    errors: num(row.errors),
    costUsd,
    baselineCostUsd,
    savingsUsd: baselineCostUsd - costUsd,
    cacheHits,
    cacheHitRate: requests > 0 ? cacheHits / requests : null,
    totalTokens: num(row.total_tokens),
    latencyP50Ms: numOrNull(row.latency_p50_ms),
    latencyP95Ms: numOrNull(row.latency_p95_ms),
  };
}

/** The org filter on alias `u`: nothing for the fleet, false for an id that cannot match. */
function orgFilter(orgId: string | undefined): SQL {
  if (orgId === undefined) return sql`true`;
  return isUuid(orgId) ? sql`u.org_id = ${orgId}::uuid` : sql`false`;
}

/** The ledger of [since, until) as one row per request (`r`), so a request counts once in counts and percentiles. */
function requestsOf(since: SQL, until: SQL, orgId: string | undefined): SQL {
  return sql`(${ledgerRequests(sql`u.created_at >= ${since} AND u.created_at < ${until} AND ${orgFilter(orgId)}`)}) AS r`;
}

/** `date_trunc` in UTC, whatever the session's time zone. */
const truncUtc = (bucket: DashboardBucket, value: SQL) => sql`(date_trunc(${bucket}, (${value}) AT TIME ZONE 'UTC') AT TIME ZONE 'UTC')`;

export function createDashboardUsageRepository(db: Drizzle): DashboardUsageRepository {
  return {
    async usageSeries(query) {
      const until = query.until ?? new Date();
      const step = query.bucket === 'hour' ? sql`interval '1 hour'` : sql`interval '1 day'`;
      const since = sql`${query.since.toISOString()}::timestamptz`;
      const end = sql`${until.toISOString()}::timestamptz`;
      const rows = rowsOf(
        await db.execute(sql`
          SELECT b.start, ${figureColumns}
          FROM generate_series(${truncUtc(query.bucket, since)}, ${end} - interval '1 microsecond', ${step}) AS b(start)
          LEFT JOIN ${requestsOf(since, end, query.orgId)}
            ON r.created_at >= b.start AND r.created_at < b.start + ${step}
          GROUP BY b.start
          ORDER BY b.start`),
      ) as Row[];
      return rows.map((row) => ({ start: new Date(row.start as Date | string), ...toFigures(row) }));
    },

    async usageTotals(query) {
      const until = query.until ?? new Date();
      const [row] = rowsOf(
        await db.execute(sql`
          SELECT ${figureColumns}
          FROM ${requestsOf(sql`${query.since.toISOString()}::timestamptz`, sql`${until.toISOString()}::timestamptz`, query.orgId)}`),
      ) as Row[];
      return toFigures(row ?? {});
    },
  };
}
