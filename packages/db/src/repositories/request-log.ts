import { type SQL, sql } from 'drizzle-orm';
import { rowsOf } from './bulk-insert.js';
import { clampLimit, type Drizzle } from './drizzle.js';
import { type TrafficFilter, trafficRequests } from './traffic.js';

/**
 * The dashboard's request log: one row per request of the decision log and the usage ledger
 * joined ({@link trafficRequests}), newest first, a page at a time. Never prompt text: the
 * tables hold none.
 */

/** Which requests: a period (and organisation) as {@link TrafficFilter}, narrowed by key, model or end user. */
export interface RequestLogQuery extends TrafficFilter {
  keyId?: string;
  /** The served model. */
  model?: string;
  /** The end user's hash as the access log and the ledger hold it (`u:` + 32 hex). */
  endUser?: string;
  /** One request (the id before any `:<part>` suffix). */
  requestId?: string;
  /** The lines of one batch (its ledger rows' tag `batch_id`). */
  batchId?: string;
  /** From the previous page's `next`; absent = the newest. */
  cursor?: string;
  /** Rows per page, 1..100 (default 50). */
  limit?: number;
}

/** One request. Costs are USD, latency milliseconds. */
export interface RequestLogEntry {
  requestId: string;
  orgId: string;
  keyId: string | null;
  createdAt: Date;
  requestedModel: string | null;
  model: string;
  tier: string | null;
  /** Why the router chose the model (`Router`, `Pinned`, `CacheHit`...); null for a ledger-only request. */
  source: string | null;
  /** `exact` (L0/L1), `semantic`, or null when a model answered. */
  cache: 'exact' | 'semantic' | null;
  memoryInjected: number | null;
  endUser: string | null;
  /** The batch the request was a line of; null for an interactive request. */
  batchId: string | null;
  /** The guardrail decisions of the request (its ledger row's tag `svc.guardrails`, `pii=redacted;...`), null when none ran. */
  guardrails: string | null;
  costUsd: number;
  /** What the request would have cost at interactive prices when it was billed at a batch price (a line a provider's batch API answered); null when billed at them. */
  interactiveCostUsd: number | null;
  latencyMs: number;
  /** The HTTP status the ledger holds; null for a request with no ledger row (every candidate failed). */
  status: number | null;
  /** The decision's outcome (`ok`, `error`, `client_closed`...), or derived from the status. */
  outcome: string;
  /** Whether a routing decision is stored (its detail can be shown). */
  hasDecision: boolean;
}

export interface RequestLogPage {
  entries: RequestLogEntry[];
  /** The cursor of the next (older) page; null on the last. */
  next: string | null;
}

export interface RequestLogRepository {
  list(query: RequestLogQuery): Promise<RequestLogPage>;
}

type Row = Record<string, unknown>;

/** `<microseconds since the epoch>.<request id>`: exact, unlike a millisecond Date. */
function parseCursor(cursor: string | undefined): { micros: string; id: string } | undefined {
  const match = cursor === undefined ? null : /^(\d{1,17})\.(.{1,200})$/.exec(cursor);
  return match ? { micros: match[1]!, id: match[2]! } : undefined;
}

function narrowing(query: RequestLogQuery): SQL {
  const parts: SQL[] = [sql`true`];
  if (query.keyId !== undefined) parts.push(sql`r.key_id = ${query.keyId}`);
  if (query.model !== undefined) parts.push(sql`r.model = ${query.model}`);
  if (query.endUser !== undefined) parts.push(sql`r.end_user = ${query.endUser}`);
  if (query.requestId !== undefined) parts.push(sql`r.request_id = ${query.requestId}`);
  if (query.batchId !== undefined) parts.push(sql`r.batch_id = ${query.batchId}`);
  const after = parseCursor(query.cursor);
  if (after) parts.push(sql`(r.created_us, r.request_id) < (${after.micros}::bigint, ${after.id})`);
  return sql.join(parts, sql` AND `);
}

const cacheOf = (layer: unknown): RequestLogEntry['cache'] => (layer === null || layer === undefined ? null : layer === 'semantic' ? 'semantic' : 'exact');
const textOrNull = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));
const numOrNull = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));

function toEntry(row: Row): RequestLogEntry {
  return {
    requestId: String(row.request_id),
    orgId: String(row.org_id),
    keyId: textOrNull(row.key_id),
    createdAt: new Date(row.created_at as Date | string),
    requestedModel: textOrNull(row.requested_model),
    model: String(row.model),
    tier: textOrNull(row.tier),
    source: textOrNull(row.source),
    cache: cacheOf(row.cache_layer),
    memoryInjected: numOrNull(row.memory_injected),
    endUser: textOrNull(row.end_user),
    batchId: textOrNull(row.batch_id),
    guardrails: textOrNull(row.guardrails),
    costUsd: Number(row.cost_usd ?? 0),
    interactiveCostUsd: numOrNull(row.interactive_cost_usd),
    latencyMs: Number(row.latency_ms ?? 0),
    status: numOrNull(row.status),
    outcome: String(row.outcome),
    hasDecision: row.source !== null && row.source !== undefined,
  };
}

export function createRequestLogRepository(db: Drizzle): RequestLogRepository {
  return {
    async list(query) {
      const limit = clampLimit(query.limit, 50, 100);
      const rows = rowsOf(
        await db.execute(sql`
          WITH ${trafficRequests(query)},
          paged AS (SELECT r.*, (extract(epoch FROM r.created_at) * 1000000)::bigint AS created_us FROM r)
          SELECT * FROM paged r
          WHERE ${narrowing(query)}
          ORDER BY r.created_us DESC, r.request_id DESC
          LIMIT ${limit + 1}`),
      ) as Row[];
      const entries = rows.slice(0, limit).map(toEntry);
      const last = rows.length > limit ? rows[limit - 1] : undefined;
      return { entries, next: last ? `${String(last.created_us)}.${String(last.request_id)}` : null };
    },
  };
}
