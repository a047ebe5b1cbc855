import { boolean, index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { bytea } from './bytea.js';
import { organizations } from './organizations.js';

const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * Files uploaded through `POST /v1/files` (batch inputs, ...) and written by the gateway (batch
 * output and error files), each its organisation's. The bytes are the rows of `file_chunks`;
 * files written before migration 0023 hold them whole in `content` (null since). A file being
 * written is `uploading` and never served; rows past `expires_at` are never served and are swept.
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
    /** The whole file, as releases before 0023 wrote it; null for a file in `file_chunks`. */
    content: bytea('content'),
    /** True while the file's chunks are being written: not served, swept a day after `created_at`. */
    uploading: boolean('uploading').notNull().default(false),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    expiresAt: timestamptz('expires_at').notNull(),
  },
  (table) => [index('files_org_created_idx').on(table.orgId, table.createdAt, table.id), index('files_expires_idx').on(table.expiresAt)],
);

/**
 * A file's bytes in rows of about 1 MiB (`part` 0, 1, ...), so that neither side of the store
 * ever holds a whole file in one value: the embedded store's memory grows faster than the value.
 */
export const fileChunks = pgTable(
  'file_chunks',
  {
    fileId: text('file_id')
      .notNull()
      .references(() => files.id, { onDelete: 'cascade' }),
    orgId: uuid('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    part: integer('part').notNull(),
    bytes: bytea('bytes').notNull(),
  },
  (table) => [primaryKey({ columns: [table.fileId, table.part] })],
);
