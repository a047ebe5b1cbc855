import { jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * Models an operator added, or catalog entries' fields an operator changed, through the admin API
 * (`/v1/admin/models`), one row per model id. `entry` is the validated request body in SVC_CONFIG
 * `models:` shape (snake_case, without `id`); every gateway instance reads the table into its
 * catalog at start, on a change notice and periodically. Global to the deployment, not per
 * organisation. `updated_by` is the key id of the admin who wrote it.
 */
export const storedModels = pgTable('stored_models', {
  id: text('id').primaryKey(),
  entry: jsonb('entry').$type<Record<string, unknown>>().notNull(),
  updatedBy: text('updated_by'),
  createdAt: timestamptz('created_at').notNull().defaultNow(),
  updatedAt: timestamptz('updated_at').notNull().defaultNow(),
});
