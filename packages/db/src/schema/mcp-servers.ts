import { jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { bytea } from './bytea.js';
import { organizations } from './organizations.js';

const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * A remote MCP server an organisation registered, one per (org, name): where it is, how the
 * gateway speaks to it, the header credential sent with every request (sealed with AES-256-GCM
 * like a BYOK key: all five credential columns are set together, or none), which of its tools
 * the gateway exposes (`tools`; NULL = all of them), to which of the organisation's keys
 * (`key_ids`; NULL = all of them), and which keys may use a given tool (`tool_key_ids`,
 * `{<tool>: [key ids]}`; a tool not named there, or NULL, is open to every key of `key_ids`).
 */
export const mcpServers = pgTable(
  'mcp_servers',
  {
    orgId: uuid('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    url: text('url').notNull(),
    transport: text('transport').notNull().default('streamable_http'),
    headerName: text('header_name'),
    ciphertext: bytea('ciphertext'),
    iv: bytea('iv'),
    tag: bytea('tag'),
    keyVersion: text('key_version'),
    last4: text('last4'),
    tools: text('tools').array(),
    keyIds: text('key_ids').array(),
    toolKeyIds: jsonb('tool_key_ids').$type<Record<string, string[]>>(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
  },
  (table) => [primaryKey({ name: 'mcp_servers_pkey', columns: [table.orgId, table.name] })],
);
