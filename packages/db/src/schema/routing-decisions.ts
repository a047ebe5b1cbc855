import { index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** The decision log: why each request went where it went, and how the waterfall ended. */
export const routingDecisions = pgTable(
  'routing_decisions',
  {
    requestId: text('request_id').primaryKey(),
    orgId: uuid('org_id').notNull(),
    requestedModel: text('requested_model'),
    model: text('model').notNull(),
    provider: text('provider').notNull(),
    tier: text('tier'),
    lane: text('lane'),
    source: text('source').notNull(),
    taskFamily: text('task_family'),
    intelligenceMode: text('intelligence_mode'),
    attempts: jsonb('attempts').$type<unknown[]>().notNull().default([]),
    candidates: jsonb('candidates').$type<unknown[]>().notNull().default([]),
    outcome: text('outcome').notNull(),
    /** Facts worth auditing that have no column: replicated choices, estimated usage, ... */
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    latencyMs: integer('latency_ms').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [
    index('routing_decisions_org_created_idx').on(table.orgId, table.createdAt),
    index('routing_decisions_created_idx').on(table.createdAt),
  ],
);
