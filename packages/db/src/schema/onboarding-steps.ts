import { pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { organizations } from './organizations.js';

const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * Completed onboarding steps per organisation: steps marked done by hand (`source = manual`) and
 * steps derived from the organisation's data, kept once seen (`source = derived`) so their
 * query never runs again.
 */
export const onboardingSteps = pgTable(
  'onboarding_steps',
  {
    orgId: uuid('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    step: text('step').notNull(),
    source: text('source', { enum: ['derived', 'manual'] }).notNull(),
    completedAt: timestamptz('completed_at').notNull().defaultNow(),
  },
  (table) => [primaryKey({ name: 'onboarding_steps_pkey', columns: [table.orgId, table.step] })],
);
