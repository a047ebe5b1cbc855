import { and, asc, eq, getTableColumns, sql } from 'drizzle-orm';
import { mcpServers } from '../schema/mcp-servers.js';
import { type Drizzle, isUuid } from './drizzle.js';

/** The header credential sent to a registered MCP server, sealed with AES-256-GCM by the caller. */
export interface McpServerCredential {
  /** The HTTP header it travels in, e.g. `Authorization`. */
  header: string;
  ciphertext: Uint8Array;
  /** The GCM nonce (12 bytes). */
  iv: Uint8Array;
  /** The GCM authentication tag (16 bytes). */
  tag: Uint8Array;
  /** Which encryption key sealed it (rotation). */
  keyVersion: string;
  /** The secret's last 4 characters: the only part ever shown back. */
  last4: string;
}

/** A remote MCP server an organisation registered, as stored. */
export interface McpServerRecord {
  orgId: string;
  /** Unique per organisation; prefixes its tools' names at the gateway. */
  name: string;
  url: string;
  /** How the gateway speaks to it; `streamable_http` only for now. */
  transport: string;
  /** Null when the server takes no credential. */
  credential: McpServerCredential | null;
  /** The tool names exposed; null = every tool the server lists. */
  tools: string[] | null;
  /** The organisation's keys that may reach it (ids); null = every key with access to `/mcp`. */
  keyIds: string[] | null;
  /** Per tool, the keys (ids) that alone may use it; a tool not named here is open to every key of `keyIds`. Null: no such rule. */
  toolKeyIds: Record<string, string[]> | null;
  createdAt: Date;
  /** Moves on every put. */
  updatedAt: Date;
}

export type NewMcpServer = Omit<McpServerRecord, 'orgId' | 'createdAt' | 'updatedAt'>;

/** Each organisation's registered MCP servers, one per name. */
export interface McpServerRepository {
  /** The organisation's servers by name; empty for unknown (or malformed) ids. */
  list(orgId: string): Promise<McpServerRecord[]>;
  get(orgId: string, name: string): Promise<McpServerRecord | undefined>;
  /**
   * Registers the server or replaces the registration of that name (`createdAt` is kept).
   * Rejects when the organisation does not exist.
   */
  put(orgId: string, server: NewMcpServer): Promise<{ server: McpServerRecord; created: boolean }>;
  /** False when there was none. */
  delete(orgId: string, name: string): Promise<boolean>;
}

type Row = typeof mcpServers.$inferSelect;

function toCredential(row: Row): McpServerCredential | null {
  const { headerName, ciphertext, iv, tag, keyVersion, last4 } = row;
  if (headerName === null || ciphertext === null || iv === null || tag === null || keyVersion === null || last4 === null) return null;
  return { header: headerName, ciphertext, iv, tag, keyVersion, last4 };
}

function toRecord(row: Row): McpServerRecord {
  return {
    orgId: row.orgId,
    name: row.name,
    url: row.url,
    transport: row.transport,
    credential: toCredential(row),
    tools: row.tools,
    keyIds: row.keyIds,
    toolKeyIds: row.toolKeyIds ?? null,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** The row's columns for `server` (credential columns all set or all null). */
function toColumns(server: NewMcpServer) {
  const credential = server.credential;
  return {
    url: server.url,
    transport: server.transport,
    headerName: credential?.header ?? null,
    ciphertext: credential?.ciphertext ?? null,
    iv: credential?.iv ?? null,
    tag: credential?.tag ?? null,
    keyVersion: credential?.keyVersion ?? null,
    last4: credential?.last4 ?? null,
    tools: server.tools === null ? null : [...server.tools],
    keyIds: server.keyIds === null ? null : [...server.keyIds],
    toolKeyIds: server.toolKeyIds === null || Object.keys(server.toolKeyIds).length === 0 ? null : server.toolKeyIds,
  };
}

const byName = (orgId: string, name: string) => and(eq(mcpServers.orgId, orgId), eq(mcpServers.name, name));

export function createMcpServerRepository(db: Drizzle): McpServerRepository {
  return {
    async list(orgId) {
      if (!isUuid(orgId)) return [];
      const rows = await db.select().from(mcpServers).where(eq(mcpServers.orgId, orgId)).orderBy(asc(mcpServers.name));
      return rows.map(toRecord);
    },

    async get(orgId, name) {
      if (!isUuid(orgId)) return undefined;
      const [row] = await db.select().from(mcpServers).where(byName(orgId, name)).limit(1);
      return row ? toRecord(row) : undefined;
    },

    async put(orgId, server) {
      const values = toColumns(server);
      const [row] = await db
        .insert(mcpServers)
        .values({ orgId, name: server.name, ...values })
        .onConflictDoUpdate({ target: [mcpServers.orgId, mcpServers.name], set: { ...values, updatedAt: sql`now()` } })
        // xmax is 0 on a freshly inserted row version, non-zero when the upsert updated.
        .returning({ ...getTableColumns(mcpServers), created: sql<boolean>`(xmax = 0)` });
      const { created, ...stored } = row!;
      return { server: toRecord(stored), created };
    },

    async delete(orgId, name) {
      if (!isUuid(orgId)) return false;
      const rows = await db.delete(mcpServers).where(byName(orgId, name)).returning({ name: mcpServers.name });
      return rows.length > 0;
    },
  };
}
