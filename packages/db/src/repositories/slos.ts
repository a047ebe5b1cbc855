import { type SloMetric, isSloMetric, sloObjective } from '@svc/core';
import { and, asc, eq, getTableColumns, sql } from 'drizzle-orm';
import { toDbError } from '../errors.js';
import { slos } from '../schema/slos.js';
import { rowsOf } from './bulk-insert.js';
import { type Drizzle, isUuid } from './drizzle.js';
import { sloValue, sloWindowRows } from './slo-window.js';

/** A service-level objective as stored (see `POST /v1/slo`). */
export interface SloRecord {
  id: string;
  orgId: string;
  name: string;
  metric: SloMetric;
  threshold: number;
  /** Share (0..1] of the window's hours with traffic in which the metric must be on the good side of `threshold`. */
  target: number;
  windowDays: number;
  createdAt: Date;
  updatedAt: Date;
}

export type NewSlo = Omit<SloRecord, 'id' | 'createdAt' | 'updatedAt'>;

/**
 * The metric of an SLO over its window, hour by hour. A slice is one UTC hour with traffic (at
 * least one decision that is not `client_closed`); a good slice has the metric on the good
 * side of the threshold (inclusive). `value` is the metric over the whole window, null without traffic.
 */
export interface SloWindowStats {
  since: Date;
  until: Date;
  slices: number;
  goodSlices: number;
  value: number | null;
}

/** Service-level objectives per organisation. */
export interface SloRepository {
  /**
   * Creates the SLO, or replaces the organisation's SLO of the same name (its id and createdAt
   * are kept). Rejects when the organisation does not exist.
   */
  put(input: NewSlo): Promise<{ slo: SloRecord; created: boolean }>;
  /** Undefined for unknown (or malformed) ids. */
  get(id: string): Promise<SloRecord | undefined>;
  /** One organisation's SLOs by name, or every organisation's when omitted. */
  list(orgId?: string): Promise<SloRecord[]>;
  /** False when the organisation has no SLO with this id. */
  delete(orgId: string, id: string): Promise<boolean>;
  /**
   * The SLO's metric over `[until - windowDays, until)` from the decision log (and the usage
   * ledger for cost), aggregated in SQL: one query, whatever the traffic.
   */
  windowStats(slo: Pick<SloRecord, 'orgId' | 'metric' | 'threshold' | 'windowDays'>, until: Date): Promise<SloWindowStats>;
}

type Row = typeof slos.$inferSelect;

function toRecord(row: Row): SloRecord {
  if (!isSloMetric(row.metric)) throw new Error(`slo ${row.id} has an unknown metric '${row.metric}'`);
  return {
    id: row.id,
    orgId: row.orgId,
    name: row.name,
    metric: row.metric,
    threshold: row.threshold,
    target: row.target,
    windowDays: row.windowDays,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

const DAY_MS = 86_400_000;

/** Creates or updates the organisation's SLO of that name. */
async function putSlo(db: Drizzle, input: NewSlo): Promise<{ slo: SloRecord; created: boolean }> {
  const values = { metric: input.metric, threshold: input.threshold, target: input.target, windowDays: input.windowDays };
  try {
    const [row] = await db
      .insert(slos)
      .values({ orgId: input.orgId, name: input.name, ...values })
      .onConflictDoUpdate({ target: [slos.orgId, slos.name], set: { ...values, updatedAt: sql`now()` } })
      // xmax is 0 on a freshly inserted row version, non-zero when the upsert updated.
      .returning({ ...getTableColumns(slos), created: sql<boolean>`(xmax = 0)` });
    const { created, ...stored } = row!;
    return { slo: toRecord(stored), created };
  } catch (error) {
    throw toDbError(error, `slo already exists: ${input.name}`);
  }
}

/** The SLO's slices over its window ending at `until`, and how many met the threshold. */
async function windowStats(db: Drizzle, slo: Pick<SloRecord, 'orgId' | 'metric' | 'threshold' | 'windowDays'>, until: Date): Promise<SloWindowStats> {
  const since = new Date(until.getTime() - slo.windowDays * DAY_MS);
  const good = sloObjective(slo.metric) === 'at_least' ? sql`value >= ${slo.threshold}::float8` : sql`value <= ${slo.threshold}::float8`;
  const [row] = rowsOf(
    await db.execute(sql`
      WITH ${sloWindowRows(slo.orgId, slo.metric, since, until)},
      s AS (SELECT d.whole AS whole, ${sloValue(slo.metric)} AS value FROM d ${slo.metric === 'cost_per_request_usd' ? sql`LEFT JOIN u ON u.whole = d.whole AND u.slice IS NOT DISTINCT FROM d.slice` : sql``})
      SELECT count(*) FILTER (WHERE whole = 0 AND value IS NOT NULL)::int AS slices,
        count(*) FILTER (WHERE whole = 0 AND ${good})::int AS good,
        max(value) FILTER (WHERE whole = 1)::float8 AS value
      FROM s`),
  ) as Record<string, unknown>[];
  return {
    since,
    until,
    slices: Number(row?.slices ?? 0),
    goodSlices: Number(row?.good ?? 0),
    value: row?.value === null || row?.value === undefined ? null : Number(row.value),
  };
}

export function createSloRepository(db: Drizzle): SloRepository {
  return {
    put: (input) => putSlo(db, input),

    async get(id) {
      if (!isUuid(id)) return undefined;
      const [row] = await db.select().from(slos).where(eq(slos.id, id)).limit(1);
      return row ? toRecord(row) : undefined;
    },

    async list(orgId) {
      if (orgId !== undefined && !isUuid(orgId)) return [];
      const query = db.select().from(slos);
      const rows = await (orgId === undefined ? query : query.where(eq(slos.orgId, orgId))).orderBy(asc(slos.orgId), asc(slos.name));
      return rows.map(toRecord);
    },

    async delete(orgId, id) {
      if (!isUuid(orgId) || !isUuid(id)) return false;
      const rows = await db
        .delete(slos)
        .where(and(eq(slos.orgId, orgId), eq(slos.id, id)))
        .returning({ id: slos.id });
      return rows.length > 0;
    },

    windowStats: (slo, until) => windowStats(db, slo, until),
  };
}
