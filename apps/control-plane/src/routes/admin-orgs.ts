import { GatewayError, intelligenceModes, memoryScopeSettings, notFound } from '@svc/core';
import { DbConflictError } from '@svc/db';
import type { RouteRegistry } from '@svc/http-kit';
import { adminOnly, defineRoute, jsonResponse } from '@svc/openapi';
import * as v from 'valibot';
import { strictBody } from '../strict-body.js';
import { listAnswer, listPageQuery, pageRequest } from './admin-list.js';
import type { ControlPlaneDeps } from '../deps.js';
import type { ControlEnv } from '../env.js';
import { validate } from '@svc/http-kit';
import { orgParams, spendQuery, pathOrg } from './admin-params.js';
import { orgToWire } from './admin-wire.js';
import { guardrailsField, toGuardrails } from './admin-guardrails.js';
import { modelAccessField, toModelAccess } from './admin-model-access.js';
import { readJson } from '../read-json.js';

// The columns' ranges: rpm/tpm are PostgreSQL integers, the token quota a bigint read as a JS number.
const limit = (max: number) => v.optional(v.nullable(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(max, `must be at most ${max}`))));
const orgFields = {
  plan: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(64))),
  rpm_limit: limit(2_147_483_647),
  tpm_limit: limit(2_147_483_647),
  monthly_budget_usd: v.optional(v.nullable(v.pipe(v.number(), v.minValue(0), v.finite()))),
  token_quota: limit(Number.MAX_SAFE_INTEGER),
  default_intelligence_mode: v.optional(v.nullable(v.picklist(intelligenceModes))),
  free_models_only: v.optional(v.boolean()),
  pass_through_models: v.optional(v.boolean()),
  memory_scope: v.optional(v.picklist(memoryScopeSettings)),
  model_access: modelAccessField,
  guardrails: guardrailsField,
};
const name = v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(100, 'at most 100 characters'));
const createSchema = strictBody({ name, ...orgFields });
const patchSchema = strictBody({ name: v.optional(name), ...orgFields });

function toOrgInput(body: v.InferOutput<typeof patchSchema>) {
  return {
    ...(body.name !== undefined ? { name: body.name } : {}),
    ...(body.plan !== undefined ? { plan: body.plan } : {}),
    ...(body.rpm_limit !== undefined ? { rpmLimit: body.rpm_limit } : {}),
    ...(body.tpm_limit !== undefined ? { tpmLimit: body.tpm_limit } : {}),
    ...(body.monthly_budget_usd !== undefined ? { monthlyBudgetUsd: body.monthly_budget_usd } : {}),
    ...(body.token_quota !== undefined ? { tokenQuota: body.token_quota } : {}),
    ...(body.default_intelligence_mode !== undefined ? { defaultIntelligenceMode: body.default_intelligence_mode } : {}),
    ...(body.free_models_only !== undefined ? { freeModelsOnly: body.free_models_only } : {}),
    ...(body.pass_through_models !== undefined ? { passThroughModels: body.pass_through_models } : {}),
    ...(body.memory_scope !== undefined ? { memoryScope: body.memory_scope } : {}),
    ...(body.model_access !== undefined ? { modelAccess: toModelAccess(body.model_access) } : {}),
    ...(body.guardrails !== undefined ? { guardrails: toGuardrails(body.guardrails) } : {}),
  };
}

function conflict(error: unknown, orgName: string | undefined): never {
  if (error instanceof DbConflictError) {
    throw new GatewayError({ status: 409, type: 'invalid_request_error', code: 'conflict', message: `An organisation named '${orgName}' already exists.`, param: 'name' });
  }
  throw error;
}


const orgAnswer = jsonResponse('The `organization`.');
const tags = ['Admin: organisations'];

export const createOrgRoute = defineRoute({
  method: 'post',
  path: '/v1/admin/orgs',
  operationId: 'createOrganization',
  summary: 'Create an organisation',
  tags,
  auth: adminOnly,
  body: { schema: createSchema, name: 'CreateOrganizationRequest' },
  responses: { 201: orgAnswer },
  errors: [400, 409, 413],
});

const listOrgsQuery = v.object(listPageQuery);

export const listOrgsRoute = defineRoute({
  method: 'get',
  path: '/v1/admin/orgs',
  operationId: 'listOrganizations',
  summary: 'List organisations',
  tags,
  auth: adminOnly,
  query: listOrgsQuery,
  responses: { 200: jsonResponse('A page of `organization` objects, oldest first: `{object: "list", data, has_more, first_id, last_id}`; `after=<last_id>` asks for the next.') },
  errors: [400],
});

export const orgSpendRoute = defineRoute({
  method: 'get',
  path: '/v1/admin/orgs/{id}/spend',
  operationId: 'getOrganizationSpend',
  summary: "An organisation's spend in a month",
  description: 'Settled spend and tokens, plus what requests in flight hold, against the budget and quota.',
  tags,
  auth: adminOnly,
  params: orgParams,
  query: spendQuery,
  responses: { 200: jsonResponse('The `org_spend`.') },
  errors: [400, 404],
});

export const updateOrgRoute = defineRoute({
  method: 'patch',
  path: '/v1/admin/orgs/{id}',
  operationId: 'updateOrganization',
  summary: 'Change an organisation',
  description: "Limits and defaults apply to the organisation's keys at once, on every instance.",
  tags,
  auth: adminOnly,
  params: orgParams,
  body: { schema: patchSchema, name: 'UpdateOrganizationRequest' },
  responses: { 200: orgAnswer },
  errors: [400, 404, 409, 413],
});

export function registerAdminOrgs(routes: RouteRegistry<ControlEnv>, deps: ControlPlaneDeps): void {
  routes.add(createOrgRoute, async (c) => {
    const body = validate(createSchema, await readJson(c, deps.maxBodyBytes));
    const org = await deps.db.orgs.create({ ...toOrgInput(body), name: body.name }).catch((error) => conflict(error, body.name));
    return c.json(orgToWire(org), 201);
  });

  routes.add(listOrgsRoute, async (c) => c.json(listAnswer(await deps.db.orgs.page(pageRequest(validate(listOrgsQuery, c.req.query()))), orgToWire)));

  routes.add(orgSpendRoute, async (c) => {
    const org = await pathOrg(c, deps);
    const { month } = validate(spendQuery, c.req.query());
    const spend = await deps.limiter.spend(org, month);
    return c.json({
      object: 'org_spend',
      org_id: org.id,
      month: spend.month,
      spent_usd: spend.spentUsd,
      reserved_usd: spend.reservedUsd,
      tokens: spend.tokens,
      reserved_tokens: spend.reservedTokens,
      monthly_budget_usd: spend.budgetUsd,
      token_quota: spend.tokenQuota,
    });
  });

  routes.add(updateOrgRoute, async (c) => {
    const id = c.req.param('id') ?? '';
    const body = validate(patchSchema, await readJson(c, deps.maxBodyBytes));
    const org = await deps.db.orgs.update(id, toOrgInput(body)).catch((error) => conflict(error, body.name));
    if (!org) throw notFound(`No organisation '${id}'.`, 'id');
    // Limits and defaults apply to the org's keys at once, on every instance.
    await deps.authenticator.orgChanged(org.id);
    return c.json(orgToWire(org));
  });
}
