import { pgTable, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * The store's own identity: one row, made by the migration that adds the table (0029) or by the
 * first read of a store without it. Every instance of a deployment reads the same id from the same
 * database, so what they share outside it (the ledger's journal in Redis) is named by it, and two
 * deployments pointed at one Redis database keep apart. A copy of the database (a dump restored
 * elsewhere) keeps the id: give a copy its own Redis database.
 */
export const storeIdentity = pgTable('store_identity', {
  id: uuid('id').primaryKey().defaultRandom(),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});
