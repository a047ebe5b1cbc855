import type { RouteRegistry } from '@svc/http-kit';
import { adminOnly, bearer, defineRoute, jsonResponse } from '@svc/openapi';
import { DEGRADATION_LEVELS, DEGRADATION_SHEDS, type DegradationState } from '@svc/pipeline';
import * as v from 'valibot';
import { strictBody } from '../strict-body.js';
import type { ControlPlaneDeps } from '../deps.js';
import type { ControlEnv } from '../env.js';
import { validate } from '@svc/http-kit';
import { readJson } from '../read-json.js';

/** `DegradationUpdate`: the level, and an optional note for the other operators; any other field is a 400 naming it. */
const updateSchema = strictBody({
  level: v.picklist(DEGRADATION_LEVELS, `must be one of ${DEGRADATION_LEVELS.join(', ')}`),
  reason: v.optional(v.nullable(v.pipe(v.string('must be a string'), v.maxLength(500, 'at most 500 characters')))),
});

function toWire(state: DegradationState) {
  return {
    object: 'degradation',
    level: state.level,
    /** What the level sheds from every request now. */
    shed_stages: DEGRADATION_SHEDS[state.level],
    reason: state.reason,
    updated_at: state.updatedAt,
    updated_by: state.updatedBy,
    levels: DEGRADATION_SHEDS,
  };
}

const tags = ['Observability'];

export const getDegradationRoute = defineRoute({
  method: 'get',
  path: '/v1/observability/degradation',
  operationId: 'getDegradation',
  summary: 'The degradation level in force on the fleet',
  tags,
  auth: bearer('observability:read'),
  responses: { 200: jsonResponse('`{object: "degradation", level, shed_stages, reason, updated_at, updated_by, levels}`.') },
});

export const setDegradationRoute = defineRoute({
  method: 'put',
  path: '/v1/observability/degradation',
  operationId: 'setDegradation',
  summary: 'Change the degradation level (fleet-wide)',
  description: 'In force on every instance within a pub/sub round trip; `light` and `heavy` shed optional stages. Any other field is a 400 naming it.',
  tags,
  auth: adminOnly,
  body: { schema: updateSchema, name: 'DegradationUpdate' },
  responses: { 200: jsonResponse('The degradation state, with `previous_level`.') },
  errors: [400, 413],
});

/**
 * `GET /degradation`, `PUT /degradation` (spec document 2), mounted under /v1/observability. The
 * level is fleet-wide (kept in the kv, in force on every instance within a pub/sub round trip):
 * reading needs `observability:read`, changing it the admin role (403 otherwise).
 */
export function registerDegradation(routes: RouteRegistry<ControlEnv>, deps: ControlPlaneDeps): void {
  routes.add(getDegradationRoute, (c) => c.json(toWire(deps.switches.degradation())));

  routes.add(setDegradationRoute, async (c) => {
    const caller = c.get('caller');
    const body = validate(updateSchema, await readJson(c, deps.maxBodyBytes));
    const previous = deps.switches.degradation().level;
    const state = await deps.switches.setDegradation(body.level, body.reason ?? null, caller.keyId);
    return c.json({ ...toWire(state), previous_level: previous });
  });
}
