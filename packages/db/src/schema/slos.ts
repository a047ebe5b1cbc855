import { doublePrecision, integer, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { organizations } from './organizations.js';

const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * Service-level objectives, one per (org, name): `metric` judged against `threshold` in each hour
 * of the last `window_days` days, met while the share of good hours is at least `target`.
 */
export const slos = pgTable(
  'slos',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    metric: text('metric').notNull(),
    threshold: doublePrecision('threshold').notNull(),
    target: doublePrecision('target').notNull(),
    windowDays: integer('window_days').notNull(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
  },
  (table) => [unique('slos_org_name_key').on(table.orgId, table.name)],
);
