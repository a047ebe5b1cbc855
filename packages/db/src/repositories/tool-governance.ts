import { and, asc, eq, sql } from 'drizzle-orm';
import { toolPolicies, toolRegistry } from '../schema/tool-governance.js';
import { type Drizzle, isUuid } from './drizzle.js';

/** A tool an organisation registered: its name and the JSON Schema of its parameters. */
export interface RegisteredToolRecord {
  orgId: string;
  name: string;
  description: string | null;
  /** JSON Schema of the arguments, stored as given. */
  parameters: Record<string, unknown>;
  createdAt: Date;
  /** Moves on every put. */
  updatedAt: Date;
}

export interface NewRegisteredTool {
  name: string;
  description?: string | null;
  parameters: Record<string, unknown>;
}

/**
 * Blocks a call to a tool whose name matches `tool` (a name or glob) when `pattern` (a regular
 * expression) matches a value of its arguments: the value at the dotted path `argument`, or any
 * value when absent. @svc/governance defines the matching.
 */
export interface ToolArgumentRule {
  tool: string;
  argument?: string;
  pattern: string;
}

/** An organisation's tool policy. */
export interface ToolPolicyRecord {
  orgId: string;
  /** Declared tools must be registered. */
  enforceRegistry: boolean;
  /** With `enforceRegistry`: a declared tool's parameters must equal its registered schema. */
  requireSchemaMatch: boolean;
  /** Tool names or glob patterns whose calls are blocked. */
  blockedTools: string[];
  blockedArgumentPatterns: ToolArgumentRule[];
  updatedAt: Date;
}

/** A whole policy; omitted fields take their defaults (false, empty). */
export interface NewToolPolicy {
  enforceRegistry?: boolean;
  requireSchemaMatch?: boolean;
  blockedTools?: readonly string[];
  blockedArgumentPatterns?: readonly ToolArgumentRule[];
}

/** The tool registry and tool policy of each organisation (tool governance). */
export interface ToolGovernanceRepository {
  /** The organisation's registered tools by name; empty for unknown (or malformed) ids. */
  listTools(orgId: string): Promise<RegisteredToolRecord[]>;
  getTool(orgId: string, name: string): Promise<RegisteredToolRecord | undefined>;
  /**
   * Registers a tool or replaces the registration of that name (`createdAt` is kept).
   * Rejects when the organisation does not exist.
   */
  putTool(orgId: string, tool: NewRegisteredTool): Promise<{ tool: RegisteredToolRecord; created: boolean }>;
  /** False when there was no such tool. */
  deleteTool(orgId: string, name: string): Promise<boolean>;
  /** Undefined when the organisation never stored a policy (no governance). */
  getPolicy(orgId: string): Promise<ToolPolicyRecord | undefined>;
  /** Replaces the policy as a whole. Rejects when the organisation does not exist. */
  putPolicy(orgId: string, policy: NewToolPolicy): Promise<ToolPolicyRecord>;
}

type ToolRow = typeof toolRegistry.$inferSelect;
type PolicyRow = typeof toolPolicies.$inferSelect;

function toTool(row: ToolRow): RegisteredToolRecord {
  return {
    orgId: row.orgId,
    name: row.name,
    description: row.description,
    parameters: row.parameters,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

function toPolicy(row: PolicyRow): ToolPolicyRecord {
  return {
    orgId: row.orgId,
    enforceRegistry: row.enforceRegistry,
    requireSchemaMatch: row.requireSchemaMatch,
    blockedTools: [...row.blockedTools],
    blockedArgumentPatterns: row.blockedArgumentPatterns.map((rule) => ({
      tool: rule.tool,
      ...(rule.argument !== undefined ? { argument: rule.argument } : {}),
      pattern: rule.pattern,
    })),
    updatedAt: row.updatedAt,
  };
}

/** Registers or updates a tool of the organisation. */
async function putTool(db: Drizzle, orgId: string, tool: NewRegisteredTool): Promise<{ tool: RegisteredToolRecord; created: boolean }> {
  const [row] = await db
    .insert(toolRegistry)
    .values({ orgId, name: tool.name, description: tool.description ?? null, parameters: tool.parameters })
    .onConflictDoUpdate({
      target: [toolRegistry.orgId, toolRegistry.name],
      set: { description: sql`excluded.description`, parameters: sql`excluded.parameters`, updatedAt: sql`now()` },
    })
    // xmax is 0 on a freshly inserted row version, non-zero when the upsert updated.
    .returning({
      orgId: toolRegistry.orgId,
      name: toolRegistry.name,
      description: toolRegistry.description,
      parameters: toolRegistry.parameters,
      createdAt: toolRegistry.createdAt,
      updatedAt: toolRegistry.updatedAt,
      created: sql<boolean>`(xmax = 0)`,
    });
  const { created, ...stored } = row!;
  return { tool: toTool(stored), created };
}

export function createToolGovernanceRepository(db: Drizzle): ToolGovernanceRepository {
  return {
    async listTools(orgId) {
      if (!isUuid(orgId)) return [];
      const rows = await db.select().from(toolRegistry).where(eq(toolRegistry.orgId, orgId)).orderBy(asc(toolRegistry.name));
      return rows.map(toTool);
    },

    async getTool(orgId, name) {
      if (!isUuid(orgId)) return undefined;
      const [row] = await db
        .select()
        .from(toolRegistry)
        .where(and(eq(toolRegistry.orgId, orgId), eq(toolRegistry.name, name)))
        .limit(1);
      return row ? toTool(row) : undefined;
    },

    putTool: (orgId, tool) => putTool(db, orgId, tool),

    async deleteTool(orgId, name) {
      if (!isUuid(orgId)) return false;
      const rows = await db
        .delete(toolRegistry)
        .where(and(eq(toolRegistry.orgId, orgId), eq(toolRegistry.name, name)))
        .returning({ name: toolRegistry.name });
      return rows.length > 0;
    },

    async getPolicy(orgId) {
      if (!isUuid(orgId)) return undefined;
      const [row] = await db.select().from(toolPolicies).where(eq(toolPolicies.orgId, orgId)).limit(1);
      return row ? toPolicy(row) : undefined;
    },

    async putPolicy(orgId, policy) {
      const values = {
        enforceRegistry: policy.enforceRegistry ?? false,
        requireSchemaMatch: policy.requireSchemaMatch ?? false,
        blockedTools: [...(policy.blockedTools ?? [])],
        blockedArgumentPatterns: (policy.blockedArgumentPatterns ?? []).map((rule) => ({ ...rule })),
      };
      const [row] = await db
        .insert(toolPolicies)
        .values({ orgId, ...values })
        .onConflictDoUpdate({ target: toolPolicies.orgId, set: { ...values, updatedAt: sql`now()` } })
        .returning();
      return toPolicy(row!);
    },
  };
}
