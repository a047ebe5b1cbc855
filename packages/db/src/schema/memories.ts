import { index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { organizations } from './organizations.js';

const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** An entity found in a memory's text, as stored. */
export interface StoredMemoryEntity {
  type: string;
  value: string;
}

/** What an organisation's conversations said, kept for recall in `full` mode. */
export const memories = pgTable(
  'memories',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    conversationId: text('conversation_id'),
    role: text('role').notNull(),
    text: text('text').notNull(),
    entities: jsonb('entities').$type<StoredMemoryEntity[]>().notNull().default([]),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (table) => [
    index('memories_org_created_idx').on(table.orgId, table.createdAt),
    index('memories_org_conversation_created_idx').on(table.orgId, table.conversationId, table.createdAt),
  ],
);
