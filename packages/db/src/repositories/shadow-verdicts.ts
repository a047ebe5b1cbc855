import { type SQL, sql } from 'drizzle-orm';
import * as v from 'valibot';
import { shadowVerdicts } from '../schema/shadow-verdicts.js';
import { rowsOf } from './bulk-insert.js';
import { type Drizzle, isUuid } from './drizzle.js';

export type NewShadowVerdict = typeof shadowVerdicts.$inferInsert;

/** Verdicts in `[since, until)`, optionally of one organisation (an id that is not a UUID matches nothing). */
export interface VerdictFilter {
  since: Date;
  until?: Date;
  orgId?: string;
}

/** The judged pairs of one candidate model on one task kind, against whatever served those requests. */
export interface JudgedFigures {
  taskKind: string;
  model: string;
  samples: number;
  wins: number;
  losses: number;
  ties: number;
  candidateCostUsd: number;
  judgeCostUsd: number;
}

/** The judged pairs of `model` against `against` on one task kind, from both sides (candidate or incumbent). */
export interface HeadToHead {
  taskKind: string;
  model: string;
  against: string;
  samples: number;
  wins: number;
  ties: number;
}

/** The model that served most of a task kind's decisions in a window, and how many it served. */
export interface ServedRoute {
  taskKind: string;
  model: string;
  decisions: number;
}

/**
 * The router's latest ruling of one kind in a window on a route change the per-task learner
 * proposed (the decision log's `details.learned.gate`): promoted (applied) or refused (the old
 * route stood), and why.
 */
export interface LearnedRuling {
  taskKind: string;
  from: string;
  to: string;
  status: 'promoted' | 'refused';
  reason: 'judged_not_worse' | 'judged_worse' | 'insufficient_judged_pairs';
  judgedWinRate: number | null;
  judgedSamples: number;
  limit: number;
  /** Decisions of the window given this ruling. */
  decisions: number;
  decidedAt: Date;
}

/** Decisive verdicts whose request got a non-neutral feedback score, and how many of them the feedback contradicts. */
export interface JudgeAgreementCounts {
  decisive: number;
  disagree: number;
}

export interface ShadowVerdictRepository {
  insert(verdict: NewShadowVerdict): Promise<void>;
  /** Per task kind and candidate model: wins, losses and ties against the served model, by task kind then model. */
  judged(filter: VerdictFilter): Promise<JudgedFigures[]>;
  /** Every ordered pair of models judged against each other, per task kind (each pair listed from both sides). */
  headToHead(filter: VerdictFilter): Promise<HeadToHead[]>;
  /** Per task family, the model that served most decisions of the window (ties: the smallest id). */
  servedRoutes(filter: VerdictFilter): Promise<ServedRoute[]>;
  /** Per task family, proposed change and ruling (status and reason), the router's latest gate ruling of that kind in the window (from the decision log). */
  learnedRulings(filter: VerdictFilter): Promise<LearnedRuling[]>;
  /**
   * The verdicts (decisive: not ties) whose request got feedback other than 0.5, read against it:
   * feedback contradicts `incumbent` (the served answer won) when below 0.5, `candidate` (it was
   * beaten) when above. The judge's error estimate (`judgeErrorRate` of @svc/judging).
   */
  judgeAgreement(filter: VerdictFilter): Promise<JudgeAgreementCounts>;
}

function where(alias: SQL, filter: VerdictFilter): SQL {
  const parts = [sql`${alias}.created_at >= ${filter.since.toISOString()}::timestamptz`];
  if (filter.until) parts.push(sql`${alias}.created_at < ${filter.until.toISOString()}::timestamptz`);
  if (filter.orgId !== undefined) parts.push(isUuid(filter.orgId) ? sql`${alias}.org_id = ${filter.orgId}::uuid` : sql`false`);
  return sql.join(parts, sql` AND `);
}

type Row = Record<string, unknown>;
const num = (value: unknown): number => Number(value ?? 0);

type Rows = (query: SQL) => Promise<Row[]>;

/** The task kind, model and counts every judged row has. */
function pairCounts(r: Row) {
  return { taskKind: String(r['task_kind']), model: String(r['model']), samples: num(r['samples']), wins: num(r['wins']), ties: num(r['ties']) };
}

async function judged(rows: Rows, filter: VerdictFilter): Promise<JudgedFigures[]> {
  const found = await rows(sql`
    SELECT v.task_kind, v.candidate_model AS model, count(*)::int AS samples,
      count(*) FILTER (WHERE v.verdict = 'candidate')::int AS wins,
      count(*) FILTER (WHERE v.verdict = 'incumbent')::int AS losses,
      count(*) FILTER (WHERE v.verdict = 'tie')::int AS ties,
      coalesce(sum(v.candidate_cost_usd), 0)::float8 AS candidate_cost_usd,
      coalesce(sum(v.judge_cost_usd), 0)::float8 AS judge_cost_usd
    FROM shadow_verdicts v WHERE ${where(sql`v`, filter)}
    GROUP BY 1, 2 ORDER BY 1, 2`);
  return found.map((r) => ({
    ...pairCounts(r),
    losses: num(r['losses']),
    candidateCostUsd: num(r['candidate_cost_usd']),
    judgeCostUsd: num(r['judge_cost_usd']),
  }));
}

async function headToHead(rows: Rows, filter: VerdictFilter): Promise<HeadToHead[]> {
  const found = await rows(sql`
    WITH sides AS (
      SELECT v.task_kind, v.candidate_model AS model, v.incumbent_model AS against,
        CASE v.verdict WHEN 'candidate' THEN 1 ELSE 0 END AS win, CASE v.verdict WHEN 'tie' THEN 1 ELSE 0 END AS tie
      FROM shadow_verdicts v WHERE ${where(sql`v`, filter)}
      UNION ALL
      SELECT v.task_kind, v.incumbent_model, v.candidate_model,
        CASE v.verdict WHEN 'incumbent' THEN 1 ELSE 0 END, CASE v.verdict WHEN 'tie' THEN 1 ELSE 0 END
      FROM shadow_verdicts v WHERE ${where(sql`v`, filter)}
    )
    SELECT task_kind, model, against, count(*)::int AS samples, sum(win)::int AS wins, sum(tie)::int AS ties
    FROM sides GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`);
  return found.map((r) => ({ ...pairCounts(r), against: String(r['against']) }));
}

async function servedRoutes(rows: Rows, filter: VerdictFilter): Promise<ServedRoute[]> {
  const found = await rows(sql`
    SELECT DISTINCT ON (task_kind) task_kind, model, decisions FROM (
      SELECT coalesce(d.task_family, 'unknown') AS task_kind, d.model, count(*)::int AS decisions
      FROM routing_decisions d WHERE ${where(sql`d`, filter)} AND d.outcome = 'ok' AND d.source <> 'CacheHit'
      GROUP BY 1, 2
    ) g ORDER BY task_kind, decisions DESC, model`);
  return found.map((r) => ({ taskKind: String(r['task_kind']), model: String(r['model']), decisions: num(r['decisions']) }));
}

/** The gate's ruling as the decision log keeps it (`details.learned.gate`). */
const GateRulingSchema = v.object({
  status: v.picklist(['promoted', 'refused']),
  reason: v.picklist(['judged_not_worse', 'judged_worse', 'insufficient_judged_pairs']),
  judgedWinRate: v.nullable(v.number()),
  judgedSamples: v.number(),
  limit: v.number(),
});

async function learnedRulings(rows: Rows, filter: VerdictFilter): Promise<LearnedRuling[]> {
  // Each distinct ruling (status and reason) of each proposed change, with its latest figures.
  const found = await rows(sql`
    SELECT DISTINCT ON (task_kind, from_model, to_model, status, reason) task_kind, from_model, to_model, gate, created_at,
      count(*) OVER (PARTITION BY task_kind, from_model, to_model, status, reason)::int AS decisions
    FROM (
      SELECT coalesce(d.task_family, 'unknown') AS task_kind, d.details #>> '{learned,incumbent}' AS from_model,
        d.details #>> '{learned,model}' AS to_model, d.details #> '{learned,gate}' AS gate,
        d.details #>> '{learned,gate,status}' AS status, d.details #>> '{learned,gate,reason}' AS reason, d.created_at
      FROM routing_decisions d WHERE ${where(sql`d`, filter)} AND d.details #> '{learned,gate}' IS NOT NULL
    ) g ORDER BY task_kind, from_model, to_model, status, reason, created_at DESC`);
  return found.flatMap((r) => {
    const gate = v.safeParse(GateRulingSchema, typeof r['gate'] === 'string' ? JSON.parse(r['gate']) : r['gate']);
    if (!gate.success) return [];
    const { status, reason, judgedWinRate, judgedSamples, limit } = gate.output;
    const route = { taskKind: String(r['task_kind']), from: String(r['from_model']), to: String(r['to_model']) };
    return [{ ...route, status, reason, judgedWinRate, judgedSamples, limit, decisions: num(r['decisions']), decidedAt: new Date(String(r['created_at'])) }];
  });
}

async function judgeAgreement(rows: Rows, filter: VerdictFilter): Promise<JudgeAgreementCounts> {
  const [found] = await rows(sql`
    SELECT count(*)::int AS decisive,
      count(*) FILTER (WHERE (v.verdict = 'incumbent' AND f.score < 0.5) OR (v.verdict = 'candidate' AND f.score > 0.5))::int AS disagree
    FROM shadow_verdicts v JOIN request_feedback f ON f.request_id = v.request_id AND f.org_id = v.org_id
    WHERE ${where(sql`v`, filter)} AND v.verdict <> 'tie' AND f.score <> 0.5`);
  return { decisive: num(found?.['decisive']), disagree: num(found?.['disagree']) };
}

export function createShadowVerdictRepository(db: Drizzle): ShadowVerdictRepository {
  const rows: Rows = async (query) => rowsOf(await db.execute(query)) as Row[];
  return {
    async insert(verdict) {
      await db.insert(shadowVerdicts).values(verdict);
    },
    judged: (filter) => judged(rows, filter),
    headToHead: (filter) => headToHead(rows, filter),
    servedRoutes: (filter) => servedRoutes(rows, filter),
    learnedRulings: (filter) => learnedRulings(rows, filter),
    judgeAgreement: (filter) => judgeAgreement(rows, filter),
  };
}
