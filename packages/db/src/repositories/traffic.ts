import { type SQL, sql } from 'drizzle-orm';
import { rowsOf } from './bulk-insert.js';
import { type Drizzle, isUuid } from './drizzle.js';
import { ledgerRequests } from './ledger-requests.js';

/**
 * Traffic figures for the observability reports (`/metrics/summary`, `/metrics/swc`,
 * `/benchmarks`): GROUP BY queries over the decision log and the usage ledger together. Each
 * reads every matching row in the database (nothing is capped) and returns one row per group.
 *
 * A request is one routing decision (chat, completions, messages, responses: answered, cached
 * or failed) or one ledger row with no decision (embeddings, moderations, audio). Its spend is
 * the sum of its ledger rows, including the `<id>:reask` and `<id>:draft` rows of output
 * verification and speculation.
 */

/** Which requests: created in `[since, until)`, optionally of one organisation. */
export interface TrafficFilter {
  /** Inclusive lower bound on `createdAt`. */
  since: Date;
  /** Exclusive upper bound on `createdAt`; none by default. */
  until?: Date;
  /** An organisation id; one that is not a UUID matches nothing. */
  orgId?: string;
}

/**
 * Figures of a set of requests. Succeeded: outcome `ok` (a ledger-only request: status below
 * 400); failed: any outcome but `ok` and `client_closed`. Latencies are of succeeded requests,
 * in ms, null when there are none (percentiles interpolated, as PostgreSQL's `percentile_cont`).
 * Costs are USD; savings = baseline - cost.
 */
export interface TrafficFigures {
  requests: number;
  succeeded: number;
  failed: number;
  clientClosed: number;
  /** Requests whose waterfall made more than one attempt. */
  fallbacks: number;
  /** Answered from a cache: `exactHits` (L0 or L1) + `semanticHits`. */
  cacheHits: number;
  exactHits: number;
  semanticHits: number;
  promptTokens: number;
  completionTokens: number;
  cachedTokens: number;
  costUsd: number;
  baselineCostUsd: number;
  latencyMeanMs: number | null;
  latencyP50Ms: number | null;
  latencyP95Ms: number | null;
  latencyP99Ms: number | null;
}

/** Figures of one workflow type and task family (null where the decision had none: cache hits, ledger-only requests). */
export type WorkloadFigures = TrafficFigures & { workflowType: string | null; taskFamily: string | null };

/** Figures of one served model on one UTC day (`YYYY-MM-DD`). */
export type DailyModelFigures = TrafficFigures & { day: string; model: string };

export interface TrafficRepository {
  /** Totals of the matching requests. */
  summary(filter: TrafficFilter): Promise<TrafficFigures>;
  /** Per workflow type and task family, costliest first. */
  workloads(filter: TrafficFilter): Promise<WorkloadFigures[]>;
  /** Per UTC day and served model, by day then model. */
  dailyByModel(filter: TrafficFilter): Promise<DailyModelFigures[]>;
  /** Per served model or per API key (null: requests without a key, e.g. failures before any spend), costliest first. */
  costs(filter: TrafficFilter, by: 'model' | 'key'): Promise<CostFigures[]>;
}

/** Figures of one served model or one API key. */
export type CostFigures = TrafficFigures & { group: string | null };

function window(alias: SQL, filter: TrafficFilter): SQL {
  const parts = [sql`${alias}.created_at >= ${filter.since.toISOString()}::timestamptz`];
  if (filter.until) parts.push(sql`${alias}.created_at < ${filter.until.toISOString()}::timestamptz`);
  if (filter.orgId !== undefined) parts.push(isUuid(filter.orgId) ? sql`${alias}.org_id = ${filter.orgId}::uuid` : sql`false`);
  return sql.join(parts, sql` AND `);
}

/**
 * One row per request (`r`): the decision and the request's ledger rows ({@link ledgerRequests})
 * joined on the request id. CTEs to follow a `WITH`; the request log reads its rows.
 */
export function trafficRequests(filter: TrafficFilter): SQL {
  return sql`
    spend AS (${ledgerRequests(window(sql`u`, filter))}),
    r AS (
      SELECT coalesce(d.request_id, s.id) AS request_id,
        coalesce(d.org_id, s.org_id) AS org_id,
        s.key_id,
        s.end_user,
        s.memory_injected,
        s.batch_id,
        s.guardrails,
        s.status,
        d.requested_model,
        d.tier,
        d.source,
        coalesce(d.model, s.model) AS model,
        coalesce(d.created_at, s.created_at) AS created_at,
        CASE WHEN d.request_id IS NOT NULL THEN d.outcome WHEN s.status < 400 THEN 'ok' ELSE 'error' END AS outcome,
        coalesce(d.latency_ms, s.latency_ms) AS latency_ms,
        CASE WHEN jsonb_typeof(d.attempts) = 'array' THEN jsonb_array_length(d.attempts) ELSE 0 END AS attempt_count,
        CASE WHEN d.source = 'CacheHit' THEN coalesce(d.details->>'cacheLayer', 'l0') WHEN s.cache_hit THEN 'l0' END AS cache_layer,
        d.details->>'workflowType' AS workflow_type,
        d.task_family,
        coalesce(s.prompt_tokens, 0) AS prompt_tokens,
        coalesce(s.completion_tokens, 0) AS completion_tokens,
        coalesce(s.cached_tokens, 0) AS cached_tokens,
        coalesce(s.cost_usd, 0) AS cost_usd,
        coalesce(s.baseline_cost_usd, 0) AS baseline_cost_usd,
        s.interactive_cost_usd
      FROM (SELECT * FROM routing_decisions d WHERE ${window(sql`d`, filter)}) d
      FULL OUTER JOIN spend s ON s.id = d.request_id
    )`;
}

/** The aggregates behind {@link TrafficFigures}, over `r`. */
const figures = sql`
  count(*)::int AS requests,
  count(*) FILTER (WHERE r.outcome = 'ok')::int AS succeeded,
  count(*) FILTER (WHERE r.outcome NOT IN ('ok', 'client_closed'))::int AS failed,
  count(*) FILTER (WHERE r.outcome = 'client_closed')::int AS client_closed,
  count(*) FILTER (WHERE r.attempt_count > 1)::int AS fallbacks,
  count(r.cache_layer)::int AS cache_hits,
  count(*) FILTER (WHERE r.cache_layer IN ('l0', 'l1'))::int AS exact_hits,
  count(*) FILTER (WHERE r.cache_layer = 'semantic')::int AS semantic_hits,
  coalesce(sum(r.prompt_tokens), 0)::float8 AS prompt_tokens,
  coalesce(sum(r.completion_tokens), 0)::float8 AS completion_tokens,
  coalesce(sum(r.cached_tokens), 0)::float8 AS cached_tokens,
  coalesce(sum(r.cost_usd), 0)::float8 AS cost_usd,
  coalesce(sum(r.baseline_cost_usd), 0)::float8 AS baseline_cost_usd,
  (avg(r.latency_ms) FILTER (WHERE r.outcome = 'ok'))::float8 AS latency_mean_ms,
  (percentile_cont(0.5) WITHIN GROUP (ORDER BY r.latency_ms) FILTER (WHERE r.outcome = 'ok'))::float8 AS latency_p50_ms,
  (percentile_cont(0.95) WITHIN GROUP (ORDER BY r.latency_ms) FILTER (WHERE r.outcome = 'ok'))::float8 AS latency_p95_ms,
  (percentile_cont(0.99) WITHIN GROUP (ORDER BY r.latency_ms) FILTER (WHERE r.outcome = 'ok'))::float8 AS latency_p99_ms`;

type Row = Record<string, unknown>;

const num = (value: unknown): number => Number(value ?? 0);
const numOrNull = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));
const textOrNull = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));

function toFigures(row: Row | undefined): TrafficFigures {
  return {
    requests: num(row?.requests),
    succeeded: num(row?.succeeded),
    failed: num(row?.failed),
    clientClosed: num(row?.client_closed),
    fallbacks: num(row?.fallbacks),
    cacheHits: num(row?.cache_hits),
    exactHits: num(row?.exact_hits),
    semanticHits: num(row?.semantic_hits),
    promptTokens: num(row?.prompt_tokens),
    completionTokens: num(row?.completion_tokens),
    cachedTokens: num(row?.cached_tokens),
    costUsd: num(row?.cost_usd),
    baselineCostUsd: num(row?.baseline_cost_usd),
    latencyMeanMs: numOrNull(row?.latency_mean_ms),
    latencyP50Ms: numOrNull(row?.latency_p50_ms),
    latencyP95Ms: numOrNull(row?.latency_p95_ms),
    latencyP99Ms: numOrNull(row?.latency_p99_ms),
  };
}

export function createTrafficRepository(db: Drizzle): TrafficRepository {
  const query = async (statement: SQL) => rowsOf(await db.execute(statement)) as Row[];
  return {
    async summary(filter) {
      const [row] = await query(sql`WITH ${trafficRequests(filter)} SELECT ${figures} FROM r`);
      return toFigures(row);
    },

    async workloads(filter) {
      const rows = await query(sql`
        WITH ${trafficRequests(filter)}
        SELECT r.workflow_type, r.task_family, ${figures}
        FROM r
        GROUP BY r.workflow_type, r.task_family
        ORDER BY cost_usd DESC, requests DESC, r.workflow_type NULLS LAST, r.task_family NULLS LAST`);
      return rows.map((row) => ({ workflowType: textOrNull(row.workflow_type), taskFamily: textOrNull(row.task_family), ...toFigures(row) }));
    },

    async costs(filter, by) {
      const group = by === 'model' ? sql`r.model` : sql`r.key_id`;
      const rows = await query(sql`
        WITH ${trafficRequests(filter)}
        SELECT ${group} AS grp, ${figures}
        FROM r
        GROUP BY 1
        ORDER BY cost_usd DESC, requests DESC, 1 NULLS LAST`);
      return rows.map((row) => ({ group: textOrNull(row.grp), ...toFigures(row) }));
    },

    async dailyByModel(filter) {
      const rows = await query(sql`
        WITH ${trafficRequests(filter)}
        SELECT to_char(r.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, r.model, ${figures}
        FROM r
        GROUP BY 1, r.model
        ORDER BY 1, r.model`);
      return rows.map((row) => ({ day: String(row.day), model: String(row.model), ...toFigures(row) }));
    },
  };
}
