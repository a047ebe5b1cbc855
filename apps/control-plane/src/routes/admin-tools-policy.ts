import { invalidRequest } from '@svc/core';
import { type ToolPolicy, ToolPolicyError, validateToolPolicy } from '@svc/governance';
import { readJson } from '@svc/inference';
import type { Hono } from 'hono';
import * as v from 'valibot';
import type { ControlPlaneDeps } from '../deps.js';
import type { ControlEnv } from '../env.js';
import { validate } from '../validate.js';
import { pathOrg } from './admin-tools.js';
import { toolPolicyToWire } from './admin-tools-wire.js';

// Shapes here; sizes, globs and patterns are checked by @svc/governance, which owns the language.
const putSchema = v.object({
  enforce_registry: v.optional(v.boolean()),
  require_schema_match: v.optional(v.boolean()),
  blocked_tools: v.optional(v.array(v.string())),
  blocked_argument_patterns: v.optional(v.array(v.object({ tool: v.string(), argument: v.optional(v.string()), pattern: v.string() }))),
});

function toPolicy(body: v.InferOutput<typeof putSchema>): ToolPolicy {
  const policy: ToolPolicy = {
    enforceRegistry: body.enforce_registry ?? false,
    requireSchemaMatch: body.require_schema_match ?? false,
    blockedTools: body.blocked_tools ?? [],
    blockedArgumentPatterns: (body.blocked_argument_patterns ?? []).map((rule) => ({
      tool: rule.tool,
      ...(rule.argument !== undefined ? { argument: rule.argument } : {}),
      pattern: rule.pattern,
    })),
  };
  try {
    validateToolPolicy(policy);
  } catch (error) {
    if (error instanceof ToolPolicyError) throw invalidRequest(error.message, error.param);
    throw error;
  }
  return policy;
}

/** `/v1/admin/orgs/{id}/tool-policy`: the organisation's tool policy, replaced as a whole by PUT. */
export function registerAdminToolPolicy(app: Hono<ControlEnv>, deps: ControlPlaneDeps): void {
  app.get('/v1/admin/orgs/:id/tool-policy', async (c) => {
    const org = await pathOrg(c, deps);
    return c.json(toolPolicyToWire(org.id, await deps.db.toolGovernance.getPolicy(org.id)));
  });

  app.put('/v1/admin/orgs/:id/tool-policy', async (c) => {
    const policy = toPolicy(validate(putSchema, await readJson(c, deps.maxBodyBytes)));
    const org = await pathOrg(c, deps);
    const stored = await deps.db.toolGovernance.putPolicy(org.id, policy);
    await deps.governance.invalidate(org.id);
    return c.json(toolPolicyToWire(org.id, stored));
  });
}
