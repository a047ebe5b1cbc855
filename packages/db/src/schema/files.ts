import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { bytea } from './bytea.js';
import { organizations } from './organizations.js';

const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * Files uploaded through `POST /v1/files` (batch inputs, ...) and written by the gateway (batch
 * output and error files), each its organisation's. `content` holds the bytes; rows past
 * `expires_at` are never served and are swept.
 */
export const files = pgTable(
  'files',
  {
    id: text('id').primaryKey(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    filename: text('filename').notNull(),
    purpose: text('purpose').notNull(),
    bytes: integer('bytes').notNull(),
    content: bytea('content').notNull(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    expiresAt: timestamptz('expires_at').notNull(),
  },
  (table) => [index('files_org_created_idx').on(table.orgId, table.createdAt, table.id), index('files_expires_idx').on(table.expiresAt)],
);
