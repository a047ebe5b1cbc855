import { and, desc, eq, gte, type SQL } from 'drizzle-orm';
import { routingDecisions } from '../schema/routing-decisions.js';
import type { DecisionListOptions, NewRoutingDecision, RoutingDecisionRecord } from '../types.js';
import { clampLimit, type Drizzle, isUuid } from './drizzle.js';

/** The routing decision log. */
export interface DecisionRepository {
  /** Appends decisions; a `requestId` already stored is skipped. Resolves to rows inserted. */
  insertMany(rows: readonly NewRoutingDecision[]): Promise<number>;
  get(requestId: string): Promise<RoutingDecisionRecord | undefined>;
  /** Newest first, filtered by any of the given fields. */
  list(options: DecisionListOptions): Promise<RoutingDecisionRecord[]>;
}

const insertChunkSize = 500;

export function createDecisionRepository(db: Drizzle): DecisionRepository {
  return {
    async insertMany(rows) {
      let inserted = 0;
      for (let start = 0; start < rows.length; start += insertChunkSize) {
        const chunk = rows.slice(start, start + insertChunkSize).map((row) => ({
          ...row,
          attempts: [...(row.attempts ?? [])],
          candidates: [...(row.candidates ?? [])],
        }));
        const result = await db
          .insert(routingDecisions)
          .values(chunk)
          .onConflictDoNothing({ target: routingDecisions.requestId })
          .returning({ requestId: routingDecisions.requestId });
        inserted += result.length;
      }
      return inserted;
    },

    async get(requestId) {
      const [row] = await db
        .select()
        .from(routingDecisions)
        .where(eq(routingDecisions.requestId, requestId))
        .limit(1);
      return row;
    },

    async list(options) {
      if (options.orgId !== undefined && !isUuid(options.orgId)) return [];
      const filters: SQL[] = [];
      if (options.since) filters.push(gte(routingDecisions.createdAt, options.since));
      if (options.orgId !== undefined) filters.push(eq(routingDecisions.orgId, options.orgId));
      if (options.model !== undefined) filters.push(eq(routingDecisions.model, options.model));
      return db
        .select()
        .from(routingDecisions)
        .where(and(...filters))
        .orderBy(desc(routingDecisions.createdAt), desc(routingDecisions.requestId))
        .limit(clampLimit(options.limit, 100));
    },
  };
}
