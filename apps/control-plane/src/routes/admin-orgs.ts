import { GatewayError, intelligenceModes, invalidRequest, notFound } from '@svc/core';
import { DbConflictError } from '@svc/db';
import { readJson } from '@svc/inference';
import type { Hono } from 'hono';
import * as v from 'valibot';
import type { ControlPlaneDeps } from '../deps.js';
import type { ControlEnv } from '../env.js';
import { validate } from '../validate.js';
import { orgToWire } from './admin-wire.js';

const limit = v.optional(v.nullable(v.pipe(v.number(), v.integer(), v.minValue(0))));
const orgFields = {
  plan: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(64))),
  rpm_limit: limit,
  tpm_limit: limit,
  monthly_budget_usd: v.optional(v.nullable(v.pipe(v.number(), v.minValue(0)))),
  token_quota: limit,
  default_intelligence_mode: v.optional(v.nullable(v.picklist(intelligenceModes))),
  free_models_only: v.optional(v.boolean()),
};
const name = v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(100, 'at most 100 characters'));
const createSchema = v.object({ name, ...orgFields });
const patchSchema = v.object({ name: v.optional(name), ...orgFields });

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
  };
}

function conflict(error: unknown, orgName: string | undefined): never {
  if (error instanceof DbConflictError) {
    throw new GatewayError({ status: 409, type: 'invalid_request_error', code: 'conflict', message: `An organisation named '${orgName}' already exists.`, param: 'name' });
  }
  throw error;
}

export function registerAdminOrgs(app: Hono<ControlEnv>, deps: ControlPlaneDeps): void {
  app.post('/v1/admin/orgs', async (c) => {
    const body = validate(createSchema, await readJson(c, deps.maxBodyBytes));
    const org = await deps.db.orgs.create({ ...toOrgInput(body), name: body.name }).catch((error) => conflict(error, body.name));
    return c.json(orgToWire(org), 201);
  });

  app.get('/v1/admin/orgs', async (c) => c.json({ object: 'list', data: (await deps.db.orgs.list()).map(orgToWire) }));

  // The month's spend against the budget and quota (settled + held by requests in flight).
  app.get('/v1/admin/orgs/:id/spend', async (c) => {
    const org = await deps.db.orgs.get(c.req.param('id'));
    if (!org) throw notFound(`No organisation '${c.req.param('id')}'.`, 'id');
    const month = c.req.query('month');
    if (month !== undefined && !/^\d{4}-(0[1-9]|1[0-2])$/.test(month)) throw invalidRequest('month must be YYYY-MM.', 'month');
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

  app.patch('/v1/admin/orgs/:id', async (c) => {
    const body = validate(patchSchema, await readJson(c, deps.maxBodyBytes));
    const org = await deps.db.orgs.update(c.req.param('id'), toOrgInput(body)).catch((error) => conflict(error, body.name));
    if (!org) throw notFound(`No organisation '${c.req.param('id')}'.`, 'id');
    // Limits and defaults apply to the org's keys at once, on every instance.
    await deps.authenticator.orgChanged(org.id);
    return c.json(orgToWire(org));
  });
}
