import { and, desc, eq, gte, type SQL, sql } from 'drizzle-orm';
import { routingDecisions } from '../schema/routing-decisions.js';
import type {
  DecisionConstraintGroup,
  DecisionFilter,
  DecisionListOptions,
  DecisionOutcomeStats,
  DecisionTally,
  NewRoutingDecision,
  RoutingDecisionRecord,
} from '../types.js';
import { withFeatures } from '../decision-features.js';
import { bulkInsert } from './bulk-insert.js';
import { constraintGroups, outcomeStats, outcomeStatsByModel, tally } from './decision-aggregates.js';
import { clampLimit, type Drizzle, isUuid } from './drizzle.js';

/** The routing decision log. */
export interface DecisionRepository {
  /** Appends decisions; a `requestId` already stored is skipped. Resolves to rows inserted. */
  insertMany(rows: readonly NewRoutingDecision[]): Promise<number>;
  get(requestId: string): Promise<RoutingDecisionRecord | undefined>;
  /** Newest first, filtered by any of the given fields. */
  list(options: DecisionListOptions): Promise<RoutingDecisionRecord[]>;

  /*
   * Aggregates for the routing reports: they read every matching decision (no row cap) and
   * return one row per group.
   */

  /** Outcome and latency figures of each `[since, until)` window, in the order given. */
  outcomeStats(windows: readonly { since: Date; until: Date }[], filter?: { orgId?: string; model?: string }): Promise<DecisionOutcomeStats[]>;
  /** Outcome and latency figures per served model, ordered by model id. */
  outcomeStatsByModel(filter: DecisionFilter): Promise<(DecisionOutcomeStats & { model: string })[]>;
  /** Per organisation, the count and outcomes of every value of each dimension (task family, complexity, model, tier, outcome). */
  tally(filter: DecisionFilter): Promise<DecisionTally[]>;
  /**
   * Decisions that stated routing constraints (`details.constraints`), grouped by those
   * constraints, `details.notApplied`, model, tier and lane, each group with up to `sampleSize`
   * request ids (newest first). Busiest group first.
   */
  constraintGroups(filter: DecisionFilter, sampleSize: number): Promise<DecisionConstraintGroup[]>;
}

/** The columns a decision row is written with: {@link decisionRow}'s keys. */
export const DECISION_COLUMNS = ['request_id', 'org_id', 'requested_model', 'model', 'provider', 'tier', 'lane', 'source', 'task_family', 'intelligence_mode', 'attempts', 'candidates', 'outcome', 'details', 'latency_ms', 'created_at'] as const;
const decisionColumnList = sql.raw(DECISION_COLUMNS.join(', '));

/** A decision as a row of the bulk insert (`jsonb_to_recordset`), its keys {@link DECISION_COLUMNS}. */
export function decisionRow(d: NewRoutingDecision): Record<(typeof DECISION_COLUMNS)[number], unknown> {
  return {
    request_id: d.requestId,
    org_id: d.orgId,
    requested_model: d.requestedModel ?? null,
    model: d.model,
    provider: d.provider,
    tier: d.tier ?? null,
    lane: d.lane ?? null,
    source: d.source,
    task_family: d.taskFamily ?? null,
    intelligence_mode: d.intelligenceMode ?? null,
    attempts: d.attempts ?? [],
    candidates: d.candidates ?? [],
    outcome: d.outcome,
    details: d.details ?? {},
    latency_ms: d.latencyMs ?? 0,
    created_at: d.createdAt?.toISOString() ?? null,
  };
}

/** Writes a batch in one statement; a request id already stored is skipped. */
function insertDecisions(db: Drizzle, rows: readonly NewRoutingDecision[]): Promise<number> {
  return bulkInsert(
    db,
    rows,
    decisionRow,
    (json) => sql`
      INSERT INTO routing_decisions (${decisionColumnList})
      SELECT request_id, org_id, requested_model, model, provider, tier, lane, source, task_family,
        intelligence_mode, attempts, candidates, outcome, details, latency_ms, coalesce(created_at, now())
      FROM jsonb_to_recordset(${json}) AS x(request_id text, org_id uuid, requested_model text, model text, provider text,
        tier text, lane text, source text, task_family text, intelligence_mode text, attempts jsonb, candidates jsonb,
        outcome text, details jsonb, latency_ms integer, created_at timestamptz)
      ON CONFLICT (request_id) DO NOTHING
      RETURNING 1`,
  );
}

export function createDecisionRepository(db: Drizzle): DecisionRepository {
  return {
    insertMany: (rows) => insertDecisions(db, rows),

    async get(requestId) {
      const [row] = await db
        .select()
        .from(routingDecisions)
        .where(eq(routingDecisions.requestId, requestId))
        .limit(1);
      return row && withFeatures(row);
    },

    async list(options) {
      if (options.orgId !== undefined && !isUuid(options.orgId)) return [];
      const filters: SQL[] = [];
      if (options.since) filters.push(gte(routingDecisions.createdAt, options.since));
      if (options.orgId !== undefined) filters.push(eq(routingDecisions.orgId, options.orgId));
      if (options.model !== undefined) filters.push(eq(routingDecisions.model, options.model));
      const rows = await db
        .select()
        .from(routingDecisions)
        .where(and(...filters))
        .orderBy(desc(routingDecisions.createdAt), desc(routingDecisions.requestId))
        .limit(clampLimit(options.limit, 100));
      return rows.map(withFeatures);
    },

    outcomeStats: (windows, filter = {}) => outcomeStats(db, windows, filter),
    outcomeStatsByModel: (filter) => outcomeStatsByModel(db, filter),
    tally: (filter) => tally(db, filter),
    constraintGroups: (filter, sampleSize) => constraintGroups(db, filter, sampleSize),
  };
}
