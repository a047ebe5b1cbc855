import { invalidRequest } from '@svc/core';
import { type ToolPolicy, ToolPolicyError, validateToolPolicy } from '@svc/governance';
import type { RouteRegistry } from '@svc/http-kit';
import { adminOnly, defineRoute, jsonResponse } from '@svc/openapi';
import * as v from 'valibot';
import { strictBody } from '../strict-body.js';
import type { ControlPlaneDeps } from '../deps.js';
import type { ControlEnv } from '../env.js';
import { validate } from '@svc/http-kit';
import { orgParams, pathOrg } from './admin-params.js';
import { toolGovernanceTags } from './admin-tools.js';
import { toolPolicyToWire } from './admin-tools-wire.js';
import { readJson } from '../read-json.js';

// Shapes here; sizes, globs and patterns are checked by @svc/governance, which owns the language.
const putSchema = strictBody({
  enforce_registry: v.optional(v.boolean()),
  require_schema_match: v.optional(v.boolean()),
  blocked_tools: v.optional(v.array(v.string())),
  blocked_argument_patterns: v.optional(v.array(strictBody({ tool: v.string(), argument: v.optional(v.string()), pattern: v.string() }))),
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

const policyAnswer = jsonResponse('The `tool_policy`.');

export const getToolPolicyRoute = defineRoute({
  method: 'get',
  path: '/v1/admin/orgs/{id}/tool-policy',
  operationId: 'getToolPolicy',
  summary: "The organisation's tool policy",
  tags: toolGovernanceTags,
  auth: adminOnly,
  params: orgParams,
  responses: { 200: policyAnswer },
  errors: [404],
});

export const putToolPolicyRoute = defineRoute({
  method: 'put',
  path: '/v1/admin/orgs/{id}/tool-policy',
  operationId: 'putToolPolicy',
  summary: "Replace the organisation's tool policy",
  description: 'Sizes, globs and patterns are checked by the governance engine (400 naming the field).',
  tags: toolGovernanceTags,
  auth: adminOnly,
  params: orgParams,
  body: { schema: putSchema, name: 'PutToolPolicyRequest' },
  responses: { 200: policyAnswer },
  errors: [400, 404, 413],
});

/** `/v1/admin/orgs/{id}/tool-policy`: the organisation's tool policy, replaced as a whole by PUT. */
export function registerAdminToolPolicy(routes: RouteRegistry<ControlEnv>, deps: ControlPlaneDeps): void {
  routes.add(getToolPolicyRoute, async (c) => {
    const org = await pathOrg(c, deps);
    return c.json(toolPolicyToWire(org.id, await deps.db.toolGovernance.getPolicy(org.id)));
  });

  routes.add(putToolPolicyRoute, async (c) => {
    const policy = toPolicy(validate(putSchema, await readJson(c, deps.maxBodyBytes)));
    const org = await pathOrg(c, deps);
    const stored = await deps.db.toolGovernance.putPolicy(org.id, policy);
    await deps.governance.invalidate(org.id);
    return c.json(toolPolicyToWire(org.id, stored));
  });
}
