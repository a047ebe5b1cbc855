import { and, type Column, desc, eq, gte, sql } from 'drizzle-orm';
import { usageEvents } from '../schema/usage-events.js';
import type { NewUsageEvent, UsageEvent, UsageListOptions, UsageSummary } from '../types.js';
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
  /** Totals of an organisation's events created at or after `since`. */
  summary(orgId: string, since: Date): Promise<UsageSummary>;
}

/** Keeps each INSERT well under PostgreSQL's 65535 bind-parameter limit. */
const insertChunkSize = 500;

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

function total(column: Column) {
  return sql`coalesce(sum(${column}), 0)`.mapWith(Number);
}

export function createUsageRepository(db: Drizzle): UsageRepository {
  return {
    async insertMany(events) {
      let inserted = 0;
      for (let start = 0; start < events.length; start += insertChunkSize) {
        const chunk = events.slice(start, start + insertChunkSize).map((event) => ({
          ...event,
          keyId: event.keyId ?? null,
        }));
        const rows = await db
          .insert(usageEvents)
          .values(chunk)
          .onConflictDoNothing({ target: usageEvents.requestId })
          .returning({ requestId: usageEvents.requestId });
        inserted += rows.length;
      }
      return inserted;
    },

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

    async summary(orgId, since) {
      if (!isUuid(orgId)) return { ...emptySummary };
      const [row] = await db
        .select({
          requests: sql`count(*)`.mapWith(Number),
          promptTokens: total(usageEvents.promptTokens),
          completionTokens: total(usageEvents.completionTokens),
          cachedTokens: total(usageEvents.cachedTokens),
          costUsd: total(usageEvents.costUsd),
          baselineCostUsd: total(usageEvents.baselineCostUsd),
          cacheHits: sql`count(*) filter (where ${usageEvents.cacheHit})`.mapWith(Number),
        })
        .from(usageEvents)
        .where(and(eq(usageEvents.orgId, orgId), gte(usageEvents.createdAt, since)));
      if (!row) return { ...emptySummary };
      return { ...row, totalTokens: row.promptTokens + row.completionTokens };
    },
  };
}
