import { parseScopes } from '@svc/auth';
import { defaultKeyScopes, invalidRequest, notFound } from '@svc/core';
import type { RouteRegistry } from '@svc/http-kit';
import { adminOnly, defineRoute, jsonResponse } from '@svc/openapi';
import type { Context } from 'hono';
import * as v from 'valibot';
import { strictBody } from '../strict-body.js';
import { listAnswer, listPageQuery, pageRequest } from './admin-list.js';
import type { ControlPlaneDeps } from '../deps.js';
import type { ControlEnv } from '../env.js';
import { validate } from '@svc/http-kit';
import { spendQuery } from './admin-params.js';
import { keyToWire } from './admin-wire.js';
import { guardrailsField, toGuardrails } from './admin-guardrails.js';
import { modelAccessField, toModelAccess } from './admin-model-access.js';
import { readJson } from '../read-json.js';

const createSchema = strictBody({
  org_id: v.pipe(v.string(), v.minLength(1, 'is required')),
  name: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(100, 'at most 100 characters')))),
  scopes: v.optional(v.array(v.string())),
  expires_at: v.optional(v.nullable(v.pipe(v.string(), v.isoTimestamp('must be an ISO-8601 timestamp')))),
  rpm_limit: v.optional(v.nullable(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(2_147_483_647), v.description("The key's own requests per minute, held on top of its organisation's; null or absent: none of its own.")))),
  tpm_limit: v.optional(v.nullable(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(2_147_483_647), v.description("The key's own tokens per minute, held on top of its organisation's; null or absent: none of its own.")))),
  monthly_budget_usd: v.optional(
    v.nullable(v.pipe(v.number(), v.minValue(0), v.finite(), v.description("The key's own spend cap per calendar month (UTC), USD, held on top of its organisation's budget; null or absent: none of its own."))),
  ),
  model_access: modelAccessField,
  guardrails: guardrailsField,
});

const patchSchema = strictBody({
  name: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(100, 'at most 100 characters')))),
  rpm_limit: createSchema.entries.rpm_limit,
  tpm_limit: createSchema.entries.tpm_limit,
  monthly_budget_usd: createSchema.entries.monthly_budget_usd,
  model_access: modelAccessField,
  guardrails: guardrailsField,
});

const listQuery = v.object({ org_id: v.optional(v.pipe(v.string(), v.description("Only this organisation's keys; all keys when absent or empty."))), ...listPageQuery });

export const createKeyRoute = defineRoute({
  method: 'post',
  path: '/v1/admin/keys',
  operationId: 'createApiKey',
  summary: 'Create an API key',
  description:
    'Without `scopes` the key gets every scope but `admin`. `rpm_limit` / `tpm_limit` / `monthly_budget_usd` limit this key on top of its organisation (a request must fit both); `model_access` lists the models and aliases it may use, on top of its organisation\'s. The secret (`key`) is in this answer only.',
  tags: ['Admin: API keys'],
  auth: adminOnly,
  body: { schema: createSchema, name: 'CreateApiKeyRequest' },
  responses: { 201: jsonResponse('The key with its secret: `{id, key, org_id, name, scopes, expires_at, rpm_limit, tpm_limit, monthly_budget_usd, model_access, guardrails, created_at}`.') },
  errors: [400, 404, 413],
});

export const listKeysRoute = defineRoute({
  method: 'get',
  path: '/v1/admin/keys',
  operationId: 'listApiKeys',
  summary: 'List API keys (without secrets)',
  tags: ['Admin: API keys'],
  auth: adminOnly,
  query: listQuery,
  responses: { 200: jsonResponse('A page of `api_key` objects (never a secret; `prefix` is `sk-svc-` and the public identifier, or `master`), oldest first: `{object: "list", data, has_more, first_id, last_id}`; `after=<last_id>` asks for the next.') },
  errors: [400],
});

export const updateKeyRoute = defineRoute({
  method: 'patch',
  path: '/v1/admin/keys/{id}',
  operationId: 'updateApiKey',
  summary: "Change an API key's name, its own limits or its model access",
  description: 'Absent fields stay as they are; `null` clears a limit. Applies to the next request, on every instance.',
  tags: ['Admin: API keys'],
  auth: adminOnly,
  params: v.object({ id: v.pipe(v.string(), v.description('The key id.')) }),
  body: { schema: patchSchema, name: 'UpdateApiKeyRequest' },
  responses: { 200: jsonResponse('The `api_key` object (without its secret).') },
  errors: [400, 404, 413],
});


export const keySpendRoute = defineRoute({
  method: 'get',
  path: '/v1/admin/keys/{id}/spend',
  operationId: 'getApiKeySpend',
  summary: "An API key's spend in a month",
  description: "Settled spend, plus what the key's requests in flight hold, against the key's own budget.",
  tags: ['Admin: API keys'],
  auth: adminOnly,
  params: v.object({ id: v.pipe(v.string(), v.description('The key id.')) }),
  query: spendQuery,
  responses: { 200: jsonResponse('`{object: "api_key_spend", key_id, org_id, month, spent_usd, reserved_usd, monthly_budget_usd}`.') },
  errors: [400, 404],
});

export const revokeKeyRoute = defineRoute({
  method: 'delete',
  path: '/v1/admin/keys/{id}',
  operationId: 'revokeApiKey',
  summary: 'Revoke an API key',
  description:
    'The key fails with `revoked_api_key` at once, on every instance. The master key in force (`SVC_MASTER_KEY`) is refused with 409 `master_key_protected`: rotate it instead (`pnpm svc master-key rotate`, or a new SVC_MASTER_KEY); a superseded master key still in its grace period may be revoked here to end the grace early.',
  tags: ['Admin: API keys'],
  auth: adminOnly,
  params: v.object({ id: v.pipe(v.string(), v.description('The key id.')) }),
  responses: { 200: jsonResponse('`{id, status: "revoked"}`.') },
  errors: [404, 409],
});

/** POST /v1/admin/keys: the key's secret is in this answer only. */
async function createKey(c: Context<ControlEnv>, deps: ControlPlaneDeps): Promise<Response> {
  const body = validate(createSchema, await readJson(c, deps.maxBodyBytes));
  const org = await deps.db.orgs.get(body.org_id).catch(() => undefined);
  if (!org) throw notFound(`No organisation '${body.org_id}'.`, 'org_id');
  const parsed = body.scopes ? parseScopes(body.scopes) : { scopes: [...defaultKeyScopes] };
  if ('unknown' in parsed) throw invalidRequest(`Unknown scope '${parsed.unknown}'.`, 'scopes');
  const expiresAt = body.expires_at ? new Date(body.expires_at) : null;
  if (expiresAt && expiresAt.getTime() <= Date.now()) throw invalidRequest('expires_at must be in the future.', 'expires_at');
  const { record, secret } = await deps.authenticator.issue({
    orgId: org.id,
    name: body.name ?? null,
    scopes: parsed.scopes,
    expiresAt,
    rpmLimit: body.rpm_limit ?? null,
    tpmLimit: body.tpm_limit ?? null,
    monthlyBudgetUsd: body.monthly_budget_usd ?? null,
    modelAccess: body.model_access ? toModelAccess(body.model_access) : null,
    guardrails: body.guardrails ? toGuardrails(body.guardrails) : null,
  });
  const wire = keyToWire(record);
  return c.json(
    {
      id: wire.id,
      key: secret,
      org_id: wire.org_id,
      name: wire.name,
      scopes: wire.scopes,
      expires_at: wire.expires_at,
      rpm_limit: wire.rpm_limit,
      tpm_limit: wire.tpm_limit,
      monthly_budget_usd: wire.monthly_budget_usd,
      model_access: wire.model_access,
      guardrails: wire.guardrails,
      created_at: wire.created_at,
    },
    201,
  );
}

/** GET /v1/admin/keys/{id}/spend: the key's month against its budget. */
async function keySpend(c: Context<ControlEnv>, deps: ControlPlaneDeps): Promise<Response> {
  const id = c.req.param('id') ?? '';
  const key = await deps.db.keys.get(id);
  if (!key) throw notFound(`No API key '${id}'.`, 'id');
  const { month } = validate(spendQuery, c.req.query());
  const spend = await deps.limiter.keySpend({ orgId: key.orgId, id: key.id, monthlyBudgetUsd: key.monthlyBudgetUsd }, month);
  return c.json({
    object: 'api_key_spend',
    key_id: key.id,
    org_id: key.orgId,
    month: spend.month,
    spent_usd: spend.spentUsd,
    reserved_usd: spend.reservedUsd,
    monthly_budget_usd: spend.budgetUsd,
  });
}

export function registerAdminKeys(routes: RouteRegistry<ControlEnv>, deps: ControlPlaneDeps): void {
  routes.add(createKeyRoute, (c) => createKey(c, deps));

  routes.add(listKeysRoute, async (c) => {
    const query = validate(listQuery, c.req.query());
    return c.json(listAnswer(await deps.db.keys.page({ orgId: query.org_id || undefined, ...pageRequest(query) }), keyToWire));
  });

  routes.add(updateKeyRoute, async (c) => {
    const body = validate(patchSchema, await readJson(c, deps.maxBodyBytes));
    const record = await deps.authenticator.update(c.req.param('id') ?? '', {
      ...(body.name !== undefined ? { name: body.name } : {}),
      ...(body.rpm_limit !== undefined ? { rpmLimit: body.rpm_limit } : {}),
      ...(body.tpm_limit !== undefined ? { tpmLimit: body.tpm_limit } : {}),
      ...(body.monthly_budget_usd !== undefined ? { monthlyBudgetUsd: body.monthly_budget_usd } : {}),
      ...(body.model_access !== undefined ? { modelAccess: toModelAccess(body.model_access) } : {}),
      ...(body.guardrails !== undefined ? { guardrails: toGuardrails(body.guardrails) } : {}),
    });
    if (!record) throw notFound(`No API key '${c.req.param('id')}'.`, 'id');
    return c.json(keyToWire(record));
  });

  routes.add(keySpendRoute, (c) => keySpend(c, deps));

  routes.add(revokeKeyRoute, async (c) => {
    const record = await deps.authenticator.revoke(c.req.param('id') ?? '');
    if (!record) throw notFound(`No API key '${c.req.param('id')}'.`, 'id');
    return c.json({ id: record.id, status: 'revoked' });
  });
}
