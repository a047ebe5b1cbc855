import type { ChatMessage } from '@svc/core';
import { index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { organizations } from './organizations.js';

const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * Responses-API answers kept for `GET /v1/responses/{id}` and `previous_response_id` (`store`).
 * `response` is the `response` object as answered; `input_items` the items it answered (wire
 * shape); `messages` the whole conversation up to and including the answer as canonical chat
 * messages (the `instructions` left out), so a continuation is one row read. Rows past
 * `expires_at` are never served and are swept.
 */
export const storedResponses = pgTable(
  'stored_responses',
  {
    id: text('id').primaryKey(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    model: text('model').notNull(),
    status: text('status').notNull(),
    response: jsonb('response').$type<object>().notNull(),
    inputItems: jsonb('input_items').$type<Record<string, unknown>[]>().notNull().default([]),
    messages: jsonb('messages').$type<ChatMessage[]>().notNull().default([]),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    expiresAt: timestamptz('expires_at').notNull(),
  },
  (table) => [index('stored_responses_org_idx').on(table.orgId), index('stored_responses_expires_idx').on(table.expiresAt)],
);
