import { type OutputConfig, defaultOutputConfig, invalidRequest, maxReasksLimit, outputVerificationDefaults } from '@svc/core';
import type { OutputConfigRecord } from '@svc/db';
import type { RouteRegistry } from '@svc/http-kit';
import { bearer, defineRoute, jsonResponse } from '@svc/openapi';
import * as v from 'valibot';
import { strictBody } from '../strict-body.js';
import type { ControlPlaneDeps } from '../deps.js';
import type { ControlEnv } from '../env.js';
import { targetOrg, targetOrgQuery } from '../target-org.js';
import { validate } from '@svc/http-kit';
import { readJson } from '../read-json.js';

/** `UpdateOutputConfigRequest`: any subset of the fields; the others keep their value. Any other field is a 400 naming it. */
const updateSchema = strictBody({
  output_verification: v.optional(v.picklist(outputVerificationDefaults, `must be one of ${outputVerificationDefaults.join(', ')}`)),
  healing: v.optional(v.boolean('must be true or false')),
  min_confidence: v.optional(v.pipe(v.number('must be a number'), v.minValue(0, 'must be 0..1'), v.maxValue(1, 'must be 0..1'))),
  max_reasks: v.optional(v.pipe(v.number('must be a number'), v.integer('must be a whole number'), v.minValue(0, `must be 0..${maxReasksLimit}`), v.maxValue(maxReasksLimit, `must be 0..${maxReasksLimit}`))),
  cross_model_candidate: v.optional(v.nullable(v.pipe(v.string('must be a model id or null'), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(200, 'at most 200 characters')))),
});

/** `OutputConfigResponse`: `source` says whether the organisation stored a config or runs on the defaults. */
function configToWire(orgId: string, config: OutputConfig, stored: OutputConfigRecord | undefined) {
  return {
    object: 'output_config',
    org_id: orgId,
    output_verification: config.outputVerification,
    healing: config.healing,
    min_confidence: config.minConfidence,
    max_reasks: config.maxReasks,
    cross_model_candidate: config.crossModelCandidate,
    source: stored ? 'organization' : 'default',
    updated_at: stored?.updatedAt.toISOString() ?? null,
  };
}

function storedConfig(record: OutputConfigRecord | undefined): OutputConfig {
  if (!record) return { ...defaultOutputConfig };
  const { outputVerification, healing, minConfidence, maxReasks, crossModelCandidate } = record;
  return { outputVerification, healing, minConfidence, maxReasks, crossModelCandidate };
}

const tags = ['Output config'];
const configAnswer = jsonResponse('`OutputConfigResponse`: `{object: "output_config", org_id, output_verification, healing, min_confidence, max_reasks, cross_model_candidate, source, updated_at}`.');

export const getOutputConfigRoute = defineRoute({
  method: 'get',
  path: '/v1/output/config',
  operationId: 'getOutputConfig',
  summary: "The organisation's output verification defaults",
  tags,
  auth: bearer('observability:read'),
  query: targetOrgQuery,
  responses: { 200: configAnswer },
  errors: [400, 404],
});

export const updateOutputConfigRoute = defineRoute({
  method: 'put',
  path: '/v1/output/config',
  operationId: 'updateOutputConfig',
  summary: "Change the organisation's output verification defaults",
  description: "Any subset of the fields; the others keep their value. `cross_model_candidate` must be a chat model of a configured provider. Reaches every instance with the organisation's next request. Any other field is a 400 naming it.",
  tags,
  auth: bearer('settings:write'),
  query: targetOrgQuery,
  body: { schema: updateSchema, name: 'UpdateOutputConfigRequest' },
  responses: { 200: configAnswer },
  errors: [400, 404, 413],
});

/**
 * `GET/PUT /v1/output/config` (spec document 2 `/config`): the organisation's output
 * verification defaults, applied by the pipeline to requests that name no
 * `svc.output_verification` (the mode) and to every verified answer (healing, minimum confidence,
 * re-asks, cross-model candidate). GET needs `observability:read`, PUT `settings:write`; a change
 * reaches every instance with the organisation's next request. `?org_id=` lets an admin act on
 * another organisation (404 when there is none).
 */
export function registerOutputConfig(routes: RouteRegistry<ControlEnv>, deps: ControlPlaneDeps): void {
  routes.add(getOutputConfigRoute, async (c) => {
    const org = await targetOrg(c, deps);
    const stored = await deps.db.outputConfigs.get(org.id);
    return c.json(configToWire(org.id, storedConfig(stored), stored));
  });

  routes.add(updateOutputConfigRoute, async (c) => {
    const body = validate(updateSchema, await readJson(c, deps.maxBodyBytes));
    let candidate = body.cross_model_candidate;
    if (typeof candidate === 'string') {
      // A chat model of a configured provider: the only thing a re-ask can call.
      const model = deps.catalog.resolve(candidate);
      if (model?.kind !== 'chat') throw invalidRequest(`cross_model_candidate: '${candidate}' is not a chat model of a configured provider (GET /v1/models lists them).`, 'cross_model_candidate');
      candidate = model.id;
    }
    const org = await targetOrg(c, deps);
    const current = storedConfig(await deps.db.outputConfigs.get(org.id));
    const next: OutputConfig = {
      outputVerification: body.output_verification ?? current.outputVerification,
      healing: body.healing ?? current.healing,
      minConfidence: body.min_confidence ?? current.minConfidence,
      maxReasks: body.max_reasks ?? current.maxReasks,
      crossModelCandidate: candidate === undefined ? current.crossModelCandidate : candidate,
    };
    const stored = await deps.db.outputConfigs.put(org.id, next);
    // Callers carry their organisation's config: reloaded at once here and on every instance.
    await deps.authenticator.orgChanged(org.id);
    return c.json(configToWire(org.id, storedConfig(stored), stored));
  });
}
