import { type SQL, sql } from 'drizzle-orm';
import type { DecisionConstraintGroup, DecisionDimension, DecisionFilter, DecisionOutcomeStats, DecisionTally } from '../types.js';
import { rowsOf } from './bulk-insert.js';
import { type Drizzle, isUuid } from './drizzle.js';

/**
 * GROUP BY queries over the decision log for the routing reports. Each reads every matching
 * row in the database (nothing is capped), returns one row per group, and runs unchanged on
 * PostgreSQL and PGlite. Counts and figures are cast in SQL (`::int`, `::float8`) so both
 * drivers hand back plain numbers.
 */

type Row = Record<string, unknown>;

const num = (value: unknown): number => Number(value ?? 0);
const numOrNull = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));
const textOrNull = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));

/** `org_id`/`model` filters of a decision alias `d`; false when the org id cannot match. */
function scopeFilter(filter: { orgId?: string; model?: string }): SQL[] {
  const parts: SQL[] = [];
  if (filter.orgId !== undefined) parts.push(isUuid(filter.orgId) ? sql`d.org_id = ${filter.orgId}::uuid` : sql`false`);
  if (filter.model !== undefined) parts.push(sql`d.model = ${filter.model}`);
  return parts;
}

function where(filter: DecisionFilter): SQL {
  const parts = [sql`d.created_at >= ${filter.since.toISOString()}::timestamptz`];
  if (filter.until) parts.push(sql`d.created_at < ${filter.until.toISOString()}::timestamptz`);
  return sql.join([...parts, ...scopeFilter(filter)], sql` AND `);
}

/** The aggregates behind {@link DecisionOutcomeStats}, over alias `d` (null rows of an outer join count for nothing). */
const outcomeColumns = sql`
  count(d.request_id)::int AS decisions,
  count(*) FILTER (WHERE d.outcome = 'ok')::int AS succeeded,
  count(*) FILTER (WHERE d.outcome NOT IN ('ok', 'client_closed'))::int AS failed,
  count(*) FILTER (WHERE CASE WHEN jsonb_typeof(d.attempts) = 'array' THEN jsonb_array_length(d.attempts) ELSE 0 END > 1)::int AS fallbacks,
  (avg(d.latency_ms) FILTER (WHERE d.outcome = 'ok'))::float8 AS latency_mean_ms,
  (percentile_cont(0.5) WITHIN GROUP (ORDER BY d.latency_ms) FILTER (WHERE d.outcome = 'ok'))::float8 AS latency_p50_ms,
  (percentile_cont(0.95) WITHIN GROUP (ORDER BY d.latency_ms) FILTER (WHERE d.outcome = 'ok'))::float8 AS latency_p95_ms`;

function toOutcomeStats(row: Row): DecisionOutcomeStats {
  return {
    decisions: num(row.decisions),
    succeeded: num(row.succeeded),
    failed: num(row.failed),
    fallbacks: num(row.fallbacks),
    latencyMeanMs: numOrNull(row.latency_mean_ms),
    latencyP50Ms: numOrNull(row.latency_p50_ms),
    latencyP95Ms: numOrNull(row.latency_p95_ms),
  };
}

/** Outcome figures of each window, in the order given; one query for all windows. */
export async function outcomeStats(db: Drizzle, windows: readonly { since: Date; until: Date }[], filter: { orgId?: string; model?: string }): Promise<DecisionOutcomeStats[]> {
  if (windows.length === 0) return [];
  const json = JSON.stringify(windows.map((w, i) => ({ i, since: w.since.toISOString(), until: w.until.toISOString() })));
  const join = sql.join([sql`d.created_at >= w.since`, sql`d.created_at < w.until`, ...scopeFilter(filter)], sql` AND `);
  const rows = rowsOf(
    await db.execute(sql`
      SELECT w.i, ${outcomeColumns}
      FROM jsonb_to_recordset(${json}::jsonb) AS w(i int, since timestamptz, until timestamptz)
      LEFT JOIN routing_decisions d ON ${join}
      GROUP BY w.i
      ORDER BY w.i`),
  ) as Row[];
  return rows.map(toOutcomeStats);
}

/** Outcome figures per served model, by model id. */
export async function outcomeStatsByModel(db: Drizzle, filter: DecisionFilter): Promise<(DecisionOutcomeStats & { model: string })[]> {
  const rows = rowsOf(
    await db.execute(sql`
      SELECT d.model, ${outcomeColumns}
      FROM routing_decisions d
      WHERE ${where(filter)}
      GROUP BY d.model
      ORDER BY d.model`),
  ) as Row[];
  return rows.map((row) => ({ model: String(row.model), ...toOutcomeStats(row) }));
}

/**
 * The decision mix: per organisation, every value of every dimension with its count, outcomes
 * and latency sum. One scan; each decision counts once per dimension.
 */
export async function tally(db: Drizzle, filter: DecisionFilter): Promise<DecisionTally[]> {
  const rows = rowsOf(
    await db.execute(sql`
      SELECT d.org_id::text AS org_id, v.dimension, v.value,
        count(*)::int AS decisions,
        count(*) FILTER (WHERE d.outcome = 'ok')::int AS succeeded,
        count(*) FILTER (WHERE d.outcome NOT IN ('ok', 'client_closed'))::int AS failed,
        coalesce(sum(d.latency_ms) FILTER (WHERE d.outcome = 'ok'), 0)::float8 AS latency_sum_ms
      FROM routing_decisions d
      CROSS JOIN LATERAL (VALUES
        ('task_family', d.task_family),
        ('complexity', d.details->>'complexity'),
        ('model', d.model),
        ('tier', d.tier),
        ('outcome', d.outcome)
      ) AS v(dimension, value)
      WHERE ${where(filter)}
      GROUP BY d.org_id, v.dimension, v.value
      ORDER BY d.org_id, v.dimension, v.value`),
  ) as Row[];
  return rows.map((row) => ({
    orgId: String(row.org_id),
    dimension: String(row.dimension) as DecisionDimension,
    value: textOrNull(row.value),
    decisions: num(row.decisions),
    succeeded: num(row.succeeded),
    failed: num(row.failed),
    latencySumMs: num(row.latency_sum_ms),
  }));
}

/** `details.constraints` without `preferenceDial` (a free number that would split every group); `{}` when absent or not an object. */
const statedConstraints = sql`(CASE WHEN jsonb_typeof(d.details->'constraints') = 'object' THEN (d.details->'constraints') - 'preferenceDial' ELSE '{}'::jsonb END)`;

/** Decisions that stated routing constraints, grouped by constraints, `notApplied` and what served them; busiest group first. */
export async function constraintGroups(db: Drizzle, filter: DecisionFilter, sampleSize: number): Promise<DecisionConstraintGroup[]> {
  const sample = Math.max(1, Math.trunc(sampleSize));
  const rows = rowsOf(
    await db.execute(sql`
      SELECT ${statedConstraints} AS constraints, d.details->'notApplied' AS not_applied, d.model, d.tier, d.lane,
        count(*)::int AS decisions,
        (array_agg(d.request_id ORDER BY d.created_at DESC, d.request_id DESC))[1:${sample}::int] AS sample,
        (extract(epoch FROM max(d.created_at)) * 1000)::float8 AS newest_at
      FROM routing_decisions d
      WHERE ${where(filter)} AND ${statedConstraints} <> '{}'::jsonb
      GROUP BY 1, 2, d.model, d.tier, d.lane
      ORDER BY decisions DESC, newest_at DESC`),
  ) as Row[];
  return rows.map((row) => ({
    // jsonb arrives parsed from both drivers; the query keeps only object constraints.
    constraints: isRecord(row.constraints) ? row.constraints : {},
    notApplied: row.not_applied ?? null,
    model: String(row.model),
    tier: textOrNull(row.tier),
    lane: textOrNull(row.lane),
    decisions: num(row.decisions),
    sampleRequestIds: Array.isArray(row.sample) ? row.sample.map(String) : [],
    newestAt: num(row.newest_at),
  }));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
