import { and, asc, type Column, desc, eq, gt, gte, lt, or, type SQL, sql } from 'drizzle-orm';
import { usageEvents } from '../schema/usage-events.js';
import type { LedgerFilter, NewUsageEvent, TagSpend, UsageEvent, UsageListOptions, UsageSummary } from '../types.js';
import { bulkInsert } from './bulk-insert.js';
import { clampLimit, type Drizzle, isUuid } from './drizzle.js';

/** The usage ledger. */
export interface UsageRepository {
  /**
   * Appends events; an event whose `requestId` is already stored is skipped (idempotent
   * replays). Resolves to the number of rows actually inserted.
   */
  insertMany(events: readonly NewUsageEvent[]): Promise<number>;
  /** An organisation's events, newest first. */
  listByOrg(orgId: string, options?: UsageListOptions): Promise<UsageEvent[]>;
  /** Totals of an organisation's events created at or after `since`; only one API key's with `keyId`. */
  summary(orgId: string, since: Date, keyId?: string): Promise<UsageSummary>;
  /** Spend and usage of an organisation's rows in `filter`, one entry per value of metadata tag `tag`, costliest first. */
  byTag(orgId: string, tag: string, filter?: LedgerFilter): Promise<TagSpend[]>;
  /**
   * One page of the ledger rows in `filter`, oldest first (`createdAt`, then `requestId`), after
   * the row `after` when given: an export reads page after page.
   */
  exportPage(filter: LedgerFilter, limit: number, after?: Pick<UsageEvent, 'createdAt' | 'requestId'>): Promise<UsageEvent[]>;
}

/** The conditions of a ledger filter (undefined: every row); an org id that is not a UUID matches nothing. */
function ledgerWhere(filter: LedgerFilter): SQL | undefined {
  const conditions: (SQL | undefined)[] = [];
  if (filter.orgId !== undefined) conditions.push(isUuid(filter.orgId) ? eq(usageEvents.orgId, filter.orgId) : sql`false`);
  if (filter.keyId !== undefined) conditions.push(eq(usageEvents.keyId, filter.keyId));
  if (filter.model !== undefined) conditions.push(eq(usageEvents.model, filter.model));
  if (filter.tag !== undefined) {
    conditions.push(filter.tag.value === undefined ? sql`${usageEvents.tags} ? ${filter.tag.key}` : sql`${usageEvents.tags} ->> ${filter.tag.key} = ${filter.tag.value}`);
  }
  if (filter.since !== undefined) conditions.push(gte(usageEvents.createdAt, filter.since));
  if (filter.until !== undefined) conditions.push(lt(usageEvents.createdAt, filter.until));
  return and(...conditions);
}

const emptySummary: UsageSummary = {
  requests: 0,
  promptTokens: 0,
  completionTokens: 0,
  cachedTokens: 0,
  totalTokens: 0,
  costUsd: 0,
  baselineCostUsd: 0,
  cacheHits: 0,
};

function total(column: Column | SQL) {
  return sql`coalesce(sum(${column}), 0)`.mapWith(Number);
}

/** A ledger event as a row of the bulk insert (`jsonb_to_recordset`), its keys {@link USAGE_COLUMNS}. */
export function usageRow(e: NewUsageEvent): Record<(typeof USAGE_COLUMNS)[number], unknown> {
  return {
    request_id: e.requestId,
    org_id: e.orgId,
    key_id: e.keyId ?? null,
    model: e.model,
    provider: e.provider,
    prompt_tokens: e.promptTokens,
    completion_tokens: e.completionTokens,
    cached_tokens: e.cachedTokens ?? 0,
    cost_usd: e.costUsd,
    baseline_cost_usd: e.baselineCostUsd,
    interactive_cost_usd: e.interactiveCostUsd ?? null,
    cache_hit: e.cacheHit ?? false,
    latency_ms: e.latencyMs,
    status: e.status,
    stream: e.stream ?? false,
    usage_estimated: e.usageEstimated ?? false,
    unpriced: e.unpriced ?? false,
    end_user: e.endUser ?? null,
    memory_injected: e.memoryInjected ?? null,
    tags: e.tags ?? null,
    created_at: e.createdAt?.toISOString() ?? null,
  };
}

/** One event per request id, the latest: one statement may not update a row twice (two attempts at a line drained together). */
function latestPerRequest(events: readonly NewUsageEvent[]): NewUsageEvent[] {
  const latest = new Map<string, NewUsageEvent>();
  for (const event of events) {
    const kept = latest.get(event.requestId);
    if (!kept || (event.createdAt?.getTime() ?? 0) > (kept.createdAt?.getTime() ?? 0)) latest.set(event.requestId, event);
  }
  return latest.size === events.length ? [...events] : [...latest.values()];
}

/** The columns a ledger row is written with: {@link usageRow}'s keys. */
export const USAGE_COLUMNS = ['request_id', 'org_id', 'key_id', 'model', 'provider', 'prompt_tokens', 'completion_tokens', 'cached_tokens', 'cost_usd', 'baseline_cost_usd', 'interactive_cost_usd', 'cache_hit', 'latency_ms', 'status', 'stream', 'usage_estimated', 'unpriced', 'end_user', 'memory_injected', 'tags', 'created_at'] as const;
const usageColumnList = sql.raw(USAGE_COLUMNS.join(', '));

/** The columns a later attempt at a batch line overwrites (every one but the key). */
const attemptColumns = USAGE_COLUMNS.slice(1);
const attemptUpdate = sql.raw(attemptColumns.map((column) => `${column} = excluded.${column}`).join(', '));

/**
 * Appends events; a `request_id` already stored is skipped (a journal entry written twice), except
 * a batch line's (tagged `batch_id`): its every attempt shares one request id and the later attempt
 * replaces the row, since a line is run again only when no answer of it was kept. Resolves to the
 * rows inserted or replaced.
 */
function insertUsage(db: Drizzle, events: readonly NewUsageEvent[]): Promise<number> {
  return bulkInsert(db, latestPerRequest(events), usageRow, (json) => sql`
    INSERT INTO usage_events (${usageColumnList})
    SELECT request_id, org_id, key_id, model, provider, prompt_tokens, completion_tokens, cached_tokens,
      cost_usd, baseline_cost_usd, interactive_cost_usd, cache_hit, latency_ms, status, stream, usage_estimated, unpriced, end_user, memory_injected, tags, coalesce(created_at, now())
    FROM jsonb_to_recordset(${json}) AS x(request_id text, org_id uuid, key_id text, model text, provider text,
      prompt_tokens integer, completion_tokens integer, cached_tokens integer, cost_usd double precision,
      baseline_cost_usd double precision, interactive_cost_usd double precision, cache_hit boolean, latency_ms integer, status integer, stream boolean,
      usage_estimated boolean, unpriced boolean, end_user text, memory_injected integer, tags jsonb, created_at timestamptz)
    ON CONFLICT (request_id) DO UPDATE SET ${attemptUpdate}
      WHERE excluded.tags ? 'batch_id' AND excluded.created_at > usage_events.created_at
    RETURNING 1`);
}

export function createUsageRepository(db: Drizzle): UsageRepository {
  return {
    insertMany: (events) => insertUsage(db, events),

    async listByOrg(orgId, options = {}) {
      if (!isUuid(orgId)) return [];
      const where = options.since
        ? and(eq(usageEvents.orgId, orgId), gte(usageEvents.createdAt, options.since))
        : eq(usageEvents.orgId, orgId);
      return db
        .select()
        .from(usageEvents)
        .where(where)
        .orderBy(desc(usageEvents.createdAt), desc(usageEvents.requestId))
        .limit(clampLimit(options.limit, 100));
    },

    async summary(orgId, since, keyId) {
      if (!isUuid(orgId)) return { ...emptySummary };
      const [row] = await db
        .select({
          // A request's extra rows (`<request id>:<part>`, voice steps and fees) are one request.
          requests: sql`count(distinct split_part(${usageEvents.requestId}, ':', 1))`.mapWith(Number),
          promptTokens: total(usageEvents.promptTokens),
          completionTokens: total(usageEvents.completionTokens),
          cachedTokens: total(usageEvents.cachedTokens),
          costUsd: total(usageEvents.costUsd),
          baselineCostUsd: total(usageEvents.baselineCostUsd),
          cacheHits: sql`count(*) filter (where ${usageEvents.cacheHit})`.mapWith(Number),
        })
        .from(usageEvents)
        .where(and(eq(usageEvents.orgId, orgId), gte(usageEvents.createdAt, since), keyId === undefined ? undefined : eq(usageEvents.keyId, keyId)));
      if (!row) return { ...emptySummary };
      return { ...row, totalTokens: row.promptTokens + row.completionTokens };
    },

    byTag: (orgId, tag, filter = {}) => spendByTag(db, orgId, tag, filter),

    exportPage: (filter, limit, after) => ledgerPage(db, filter, limit, after),
  };
}

/** Spend and usage per value of metadata tag `tag`, costliest first. */
function spendByTag(db: Drizzle, orgId: string, tag: string, filter: LedgerFilter): Promise<TagSpend[]> {
  const value = sql<string | null>`${usageEvents.tags} ->> ${tag}`;
  return db
    .select({
      value,
      requests: sql`count(distinct split_part(${usageEvents.requestId}, ':', 1))`.mapWith(Number),
      promptTokens: total(usageEvents.promptTokens),
      completionTokens: total(usageEvents.completionTokens),
      costUsd: total(usageEvents.costUsd),
      interactiveCostUsd: total(sql`coalesce(${usageEvents.interactiveCostUsd}, ${usageEvents.costUsd})`),
    })
    .from(usageEvents)
    .where(ledgerWhere({ ...filter, orgId }))
    // By position: the tag name is a parameter, and a repeated expression would be another one.
    .groupBy(sql`1`)
    .orderBy(desc(total(usageEvents.costUsd)), sql`1`);
}

/** One page of the rows in `filter`, oldest first, after the row `after` (keyset on created_at, request_id). */
function ledgerPage(db: Drizzle, filter: LedgerFilter, limit: number, after: Pick<UsageEvent, 'createdAt' | 'requestId'> | undefined): Promise<UsageEvent[]> {
  const page = after ? or(gt(usageEvents.createdAt, after.createdAt), and(eq(usageEvents.createdAt, after.createdAt), gt(usageEvents.requestId, after.requestId))) : undefined;
  return db
    .select()
    .from(usageEvents)
    .where(and(ledgerWhere(filter), page))
    .orderBy(asc(usageEvents.createdAt), asc(usageEvents.requestId))
    .limit(clampLimit(limit, 1000));
}
