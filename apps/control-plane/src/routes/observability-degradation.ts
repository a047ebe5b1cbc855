import { requireAdmin } from '@svc/auth';
import { readJson } from '@svc/inference';
import { DEGRADATION_LEVELS, DEGRADATION_SHEDS, type DegradationState } from '@svc/pipeline';
import type { Hono } from 'hono';
import * as v from 'valibot';
import type { ControlPlaneDeps } from '../deps.js';
import type { ControlEnv } from '../env.js';
import { validate } from '../validate.js';

/** `DegradationUpdate`: the level, and an optional note for the other operators; extra fields are ignored. */
const updateSchema = v.object({
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

/**
 * `GET /degradation`, `PUT /degradation` (spec document 2), mounted under /v1/observability. The
 * level is fleet-wide (kept in the kv, in force on every instance within a pub/sub round trip):
 * reading needs `observability:read`, changing it the admin role (403 otherwise).
 */
export function registerDegradation(app: Hono<ControlEnv>, deps: ControlPlaneDeps): void {
  app.get('/v1/observability/degradation', (c) => c.json(toWire(deps.switches.degradation())));

  app.put('/v1/observability/degradation', async (c) => {
    const caller = c.get('caller');
    requireAdmin(caller);
    const body = validate(updateSchema, await readJson(c, deps.maxBodyBytes));
    const previous = deps.switches.degradation().level;
    const state = await deps.switches.setDegradation(body.level, body.reason ?? null, caller.keyId);
    return c.json({ ...toWire(state), previous_level: previous });
  });
}
