import type { MemoryEntity } from '@svc/core';
import { index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { bytea } from './bytea.js';
import { organizations } from './organizations.js';

const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** An entity found in a memory's text, as stored. */
export type StoredMemoryEntity = MemoryEntity;

/**
 * Facts an end user stated, kept for recall in `full` mode. `subject` is the memory scope
 * inside the organisation: `u:<hash of the end user id>` or `k:<api key id>` for requests that
 * name no end user. `slot` names what a fact is about (`home`, `name`, ...): a newer fact of the
 * same slot and subject replaces the older one: the older row stays as history with `superseded_by`
 * naming its successor, and is never listed or recalled again. `embedding` is the fact's vector (little-endian
 * float32) under `embedder`, so an in-process index is rebuilt after a restart without re-embedding.
 */
export const memories = pgTable(
  'memories',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    subject: text('subject').notNull().default(''),
    conversationId: text('conversation_id'),
    role: text('role').notNull(),
    slot: text('slot'),
    text: text('text').notNull(),
    entities: jsonb('entities').$type<StoredMemoryEntity[]>().notNull().default([]),
    embedder: text('embedder'),
    embedding: bytea('embedding'),
    /** The newer fact that replaced this one (a correction); null while it is in force. Kept as history, never recalled. */
    supersededBy: uuid('superseded_by'),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
  },
  (table) => [
    index('memories_org_created_idx').on(table.orgId, table.createdAt),
    index('memories_org_subject_updated_idx').on(table.orgId, table.subject, table.updatedAt),
    index('memories_updated_idx').on(table.updatedAt),
  ],
);
