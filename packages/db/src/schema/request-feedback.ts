import { doublePrecision, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { organizations } from './organizations.js';
import { usageEvents } from './usage-events.js';

/**
 * A request's outcome as its caller judged it (`POST /v1/feedback`): one row per ledger row, the
 * first score kept (a repeat of the same score is accepted, another one refused). `model` and
 * `task_family` are copied from the ledger and the decision log when the feedback arrives, so
 * reports and the router's learner read one row.
 */
export const requestFeedback = pgTable(
  'request_feedback',
  {
    requestId: text('request_id')
      .primaryKey()
      .references(() => usageEvents.requestId, { onDelete: 'cascade' }),
    orgId: uuid('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** The key that sent the feedback (a revoked key keeps its feedback). */
    keyId: text('key_id'),
    /** The model that answered (the ledger's). */
    model: text('model').notNull(),
    /** The decision log's task family; null when the request was not routed (embeddings, ...). */
    taskFamily: text('task_family'),
    /** 0..1; thumbs up is 1, down 0. */
    score: doublePrecision('score').notNull(),
    /** `up` or `down` when the feedback was sent as thumbs. */
    thumbs: text('thumbs'),
    comment: text('comment'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [index('request_feedback_org_created_idx').on(table.orgId, table.createdAt)],
);
