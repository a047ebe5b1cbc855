import { and, eq } from 'drizzle-orm';
import { requestFeedback } from '../schema/request-feedback.js';
import { routingDecisions } from '../schema/routing-decisions.js';
import { usageEvents } from '../schema/usage-events.js';
import { type Drizzle, isUuid } from './drizzle.js';

/** One request's feedback (see the `request_feedback` table). */
export interface FeedbackRecord {
  requestId: string;
  orgId: string;
  keyId: string | null;
  model: string;
  taskFamily: string | null;
  score: number;
  thumbs: 'up' | 'down' | null;
  comment: string | null;
  createdAt: Date;
}

export type NewFeedback = Pick<FeedbackRecord, 'requestId' | 'orgId' | 'keyId' | 'score' | 'thumbs' | 'comment'>;

/**
 * What `record` did: `created` (first feedback of the request), `same` (the same feedback again:
 * nothing changed), `conflict` (the request has other feedback, which stays), `not_found` (no
 * ledger row of the organisation has this request id).
 */
export type FeedbackResult = { status: 'created' | 'same' | 'conflict'; feedback: FeedbackRecord } | { status: 'not_found' };

/** Each organisation's request feedback; no method reads or writes another organisation's. */
export interface FeedbackRepository {
  record(feedback: NewFeedback): Promise<FeedbackResult>;
  get(orgId: string, requestId: string): Promise<FeedbackRecord | undefined>;
}

type Row = typeof requestFeedback.$inferSelect;

const toRecord = (row: Row): FeedbackRecord => ({ ...row, thumbs: row.thumbs === 'up' || row.thumbs === 'down' ? row.thumbs : null });

const sameFeedback = (a: FeedbackRecord, b: NewFeedback) => a.score === b.score && a.thumbs === b.thumbs && a.comment === b.comment;

export function createFeedbackRepository(db: Drizzle): FeedbackRepository {
  const get = async (orgId: string, requestId: string) => {
    if (!isUuid(orgId)) return undefined;
    const [row] = await db
      .select()
      .from(requestFeedback)
      .where(and(eq(requestFeedback.orgId, orgId), eq(requestFeedback.requestId, requestId)));
    return row ? toRecord(row) : undefined;
  };
  /** The ledger row's model and the decision's task family, when the organisation has this request. */
  const served = async (orgId: string, requestId: string) => {
    if (!isUuid(orgId)) return undefined;
    const [row] = await db
      .select({ model: usageEvents.model, taskFamily: routingDecisions.taskFamily })
      .from(usageEvents)
      .leftJoin(routingDecisions, eq(routingDecisions.requestId, usageEvents.requestId))
      .where(and(eq(usageEvents.orgId, orgId), eq(usageEvents.requestId, requestId)));
    return row;
  };
  return {
    get,
    async record(feedback) {
      const ledger = await served(feedback.orgId, feedback.requestId);
      if (!ledger) return { status: 'not_found' };
      const [inserted] = await db
        .insert(requestFeedback)
        .values({ ...feedback, model: ledger.model, taskFamily: ledger.taskFamily ?? null })
        .onConflictDoNothing({ target: requestFeedback.requestId })
        .returning();
      if (inserted) return { status: 'created', feedback: toRecord(inserted) };
      const existing = await get(feedback.orgId, feedback.requestId);
      if (!existing) return { status: 'not_found' };
      return { status: sameFeedback(existing, feedback) ? 'same' : 'conflict', feedback: existing };
    },
  };
}
