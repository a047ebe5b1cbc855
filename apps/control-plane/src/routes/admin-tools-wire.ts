import type { RegisteredToolRecord, ToolPolicyRecord } from '@svc/db';

/** A registered tool in wire names. */
export function toolToWire(tool: RegisteredToolRecord) {
  return {
    object: 'tool',
    name: tool.name,
    description: tool.description,
    parameters: tool.parameters,
    created_at: tool.createdAt.toISOString(),
    updated_at: tool.updatedAt.toISOString(),
  };
}

/** An organisation's tool policy in wire names; the defaults (nothing enforced) when none is stored. */
export function toolPolicyToWire(orgId: string, policy: ToolPolicyRecord | undefined) {
  return {
    object: 'tool_policy',
    org_id: orgId,
    enforce_registry: policy?.enforceRegistry ?? false,
    require_schema_match: policy?.requireSchemaMatch ?? false,
    blocked_tools: policy?.blockedTools ?? [],
    blocked_argument_patterns: (policy?.blockedArgumentPatterns ?? []).map((rule) => ({
      tool: rule.tool,
      ...(rule.argument !== undefined ? { argument: rule.argument } : {}),
      pattern: rule.pattern,
    })),
    updated_at: policy?.updatedAt.toISOString() ?? null,
  };
}
