import { boolean, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { organizations } from './organizations.js';

const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** A blocked-argument rule as stored (see ToolArgumentRule). */
export interface StoredToolArgumentRule {
  tool: string;
  argument?: string;
  pattern: string;
}

/** The tools an organisation allows: one row per (org, tool name), with its JSON Schema. */
export const toolRegistry = pgTable(
  'tool_registry',
  {
    orgId: uuid('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description'),
    parameters: jsonb('parameters').$type<Record<string, unknown>>().notNull(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
  },
  (table) => [primaryKey({ name: 'tool_registry_pkey', columns: [table.orgId, table.name] })],
);

/** One tool policy per organisation; no row = no governance. */
export const toolPolicies = pgTable('tool_policies', {
  orgId: uuid('org_id')
    .primaryKey()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  enforceRegistry: boolean('enforce_registry').notNull().default(false),
  requireSchemaMatch: boolean('require_schema_match').notNull().default(false),
  blockedTools: text('blocked_tools').array().notNull().default([]),
  blockedArgumentPatterns: jsonb('blocked_argument_patterns').$type<StoredToolArgumentRule[]>().notNull().default([]),
  updatedAt: timestamptz('updated_at').notNull().defaultNow(),
});
