import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { organizations } from './organizations.js';

const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * Alerts raised by the evaluator (SLO breaches, open breakers, limit refusal spikes). At most one
 * alert per `dedupe_key` is firing at a time (a partial unique index), so N instances raising
 * the same condition store one row; resolving it frees the key for the next occurrence.
 * `org_id` is null for platform-wide alerts (a breaker is per model, not per organisation).
 */
export const alerts = pgTable(
  'alerts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id').references(() => organizations.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    severity: text('severity').notNull(),
    status: text('status', { enum: ['firing', 'resolved'] })
      .notNull()
      .default('firing'),
    dedupeKey: text('dedupe_key').notNull(),
    /** What the alert is about: an SLO id, a breaker key (`provider/model`), a limit kind. */
    subject: text('subject').notNull(),
    message: text('message').notNull(),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    firedAt: timestamptz('fired_at').notNull().defaultNow(),
    resolvedAt: timestamptz('resolved_at'),
  },
  (table) => [
    uniqueIndex('alerts_firing_dedupe_key_idx').on(table.dedupeKey).where(sql`status = 'firing'`),
    index('alerts_org_fired_idx').on(table.orgId, table.firedAt),
    index('alerts_fired_idx').on(table.firedAt),
  ],
);
