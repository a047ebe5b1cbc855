import { invalidRequest } from '@svc/core';
import { validate, type RouteRegistry } from '@svc/http-kit';
import { type JudgeAgreement, SHADOW_SETTINGS_KEY, type ShadowSettingsWire, cautiousStartOf, readShadowSettings, shadowSettingsEntries } from '@svc/judging';
import { adminOnly, defineRoute, jsonResponse } from '@svc/openapi';
import type { ControlPlaneDeps } from '../deps.js';
import type { ControlEnv } from '../env.js';
import { readJson } from '../read-json.js';
import { strictBody } from '../strict-body.js';
import { orgParams, pathOrg } from './admin-params.js';

const putSchema = strictBody(shadowSettingsEntries);

const tags = ['Routing'];
const answer = jsonResponse(
  '`{object: "shadow_judging", org_id, enabled, sample_rate, candidate_models, judge_model, daily_budget_usd, judge_error_rate, judge_error: {rate, source, pairs}, cautious_start}`; off (enabled false, no judge) until set, `cautious_start` true until set. `judge_error` is the share the router\'s learner assumes: `setting`, `feedback` (estimated) or `default`.',
);

export const getShadowJudgingRoute = defineRoute({
  method: 'get',
  path: '/v1/admin/orgs/{id}/shadow-judging',
  operationId: 'getShadowJudging',
  summary: "The organisation's shadow judging",
  tags,
  auth: adminOnly,
  params: orgParams,
  responses: { 200: answer },
  errors: [404],
});

export const putShadowJudgingRoute = defineRoute({
  method: 'put',
  path: '/v1/admin/orgs/{id}/shadow-judging',
  operationId: 'putShadowJudging',
  summary: "Replace the organisation's shadow judging",
  description:
    'Every field but `candidate_models`, `judge_error_rate` and `cautious_start` is required; `candidate_models` absent or null: the served model\'s cheaper models of its pool; `judge_error_rate` (0 to 0.45) absent or null: estimated from judged pairs that also got feedback, else 0.15; `cautious_start` (boolean) absent: true, false: the router\'s learner gives the organisation\'s task kinds no cautious start (the router\'s cheap choice serves a kind until a move up is proven; docs/routing.md, "A cautious start"). The judge and each candidate must be chat models of the active catalog (400 naming the field). docs/routing.md, "Shadow judging".',
  tags,
  auth: adminOnly,
  params: orgParams,
  body: { schema: putSchema, name: 'PutShadowJudgingRequest' },
  responses: { 200: answer },
  errors: [400, 404, 413],
});

/** The wire shape of an organisation's shadow judging; `agreement`: its judged pairs read against feedback (the judge error estimate). */
export function shadowSettingsWire(orgId: string, stored: Record<string, unknown>, agreement?: JudgeAgreement) {
  const settings = readShadowSettings(stored, agreement);
  return {
    object: 'shadow_judging',
    org_id: orgId,
    enabled: settings?.enabled ?? false,
    sample_rate: settings?.sampleRate ?? 0,
    candidate_models: settings?.candidateModels ?? null,
    judge_model: settings?.judgeModel ?? null,
    daily_budget_usd: settings?.dailyBudgetUsd ?? 0,
    judge_error_rate: settings?.judgeErrorRate ?? null,
    judge_error: settings ? { rate: settings.judgeError.rate, source: settings.judgeError.source, pairs: settings.judgeError.pairs } : null,
    cautious_start: cautiousStartOf(settings),
  };
}

/** How far back judged pairs are read against feedback for the judge error estimate (as the gateway reads them). */
const AGREEMENT_WINDOW_MS = 30 * 86_400_000;

/** An organisation's shadow judging as the API answers it, with the judge error estimate read from its judged pairs and feedback. */
export async function readShadowSettingsWire(deps: ControlPlaneDeps, orgId: string, stored: Record<string, unknown>) {
  const agreement = await deps.db.shadowVerdicts.judgeAgreement({ orgId, since: new Date(Date.now() - AGREEMENT_WINDOW_MS) });
  return shadowSettingsWire(orgId, stored, agreement);
}

/** The models as catalog slugs; a name that is no chat model of the catalog is a 400 naming its field. */
function resolveModels(deps: ControlPlaneDeps, body: ShadowSettingsWire): ShadowSettingsWire {
  const slug = (name: string, param: string) => {
    const model = deps.catalog.resolve(name);
    if (model?.kind !== 'chat') throw invalidRequest(`'${name}' is not a chat model of a configured provider (GET /v1/models lists them).`, param);
    return model.id;
  };
  const candidates = body.candidate_models?.map((name, i) => slug(name, `candidate_models[${i}]`));
  return { ...body, judge_model: slug(body.judge_model, 'judge_model'), candidate_models: candidates ? [...new Set(candidates)] : null };
}

/** `/v1/admin/orgs/{id}/shadow-judging`: read and replace an organisation's shadow judging; a change reaches every instance. */
export function registerAdminShadowJudging(routes: RouteRegistry<ControlEnv>, deps: ControlPlaneDeps): void {
  routes.add(getShadowJudgingRoute, async (c) => {
    const org = await pathOrg(c, deps);
    return c.json(await readShadowSettingsWire(deps, org.id, await deps.db.settings.get(org.id)));
  });

  routes.add(putShadowJudgingRoute, async (c) => {
    const settings = parseShadowSettings(deps, await readJson(c, deps.maxBodyBytes));
    const org = await pathOrg(c, deps);
    return c.json(await storeShadowSettings(deps, org.id, settings));
  });
}

/** A body as shadow-judging settings: the strict schema (400 naming a field), models resolved to catalog slugs. */
export function parseShadowSettings(deps: ControlPlaneDeps, body: unknown): ShadowSettingsWire {
  return resolveModels(deps, validate(putSchema, body));
}

/** Replace an organisation's shadow judging and drop its cached settings on every instance (the admin API's PUT and the dashboard's form). */
export async function storeShadowSettings(deps: ControlPlaneDeps, orgId: string, settings: ShadowSettingsWire) {
  const stored = await deps.db.settings.merge(orgId, { [SHADOW_SETTINGS_KEY]: settings });
  await deps.shadowSettings.invalidate(orgId);
  return readShadowSettingsWire(deps, orgId, stored);
}
