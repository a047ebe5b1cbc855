import { index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { organizations } from './organizations.js';

const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * Memories as releases before migration 0009 kept them: verbatim transcripts (user messages and
 * the assistant's answers) shared by the whole organisation. The memory contract since then
 * stores end users' stated facts in their own scope and cannot attribute these to anyone, so
 * they are never recalled; 0009 moved them here instead of deleting them, for the admin API to
 * list, export and delete.
 */
export const memoriesLegacy = pgTable(
  'memories_legacy',
  {
    id: uuid('id').primaryKey(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    conversationId: text('conversation_id'),
    role: text('role').notNull(),
    text: text('text').notNull(),
    entities: jsonb('entities').$type<unknown[]>().notNull().default([]),
    createdAt: timestamptz('created_at').notNull(),
  },
  (table) => [index('memories_legacy_org_created_idx').on(table.orgId, table.createdAt)],
);
