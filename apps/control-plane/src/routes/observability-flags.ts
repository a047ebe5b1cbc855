import { requireAdmin } from '@svc/auth';
import { notFound } from '@svc/core';
import { readJson } from '@svc/inference';
import { FLAG_DESCRIPTIONS, FLAG_KEYS, type FlagKey, type FlagState } from '@svc/pipeline';
import type { Hono } from 'hono';
import * as v from 'valibot';
import type { ControlPlaneDeps } from '../deps.js';
import type { ControlEnv } from '../env.js';
import { validate } from '../validate.js';

/** `PUT /flags/{key}` body; extra fields are ignored. */
const toggleSchema = v.object({ enabled: v.boolean('must be true or false') });

function toWire(flag: FlagState) {
  return {
    object: 'flag',
    key: flag.key,
    enabled: flag.enabled,
    description: FLAG_DESCRIPTIONS[flag.key],
    default_enabled: flag.defaultEnabled,
    overridden: flag.overridden,
    available: flag.available,
    updated_at: flag.updatedAt,
    updated_by: flag.updatedBy,
  };
}

const isFlag = (key: string): key is FlagKey => (FLAG_KEYS as readonly string[]).includes(key);

/**
 * `GET /flags`, `PUT /flags/{key}` (spec document 2), mounted under /v1/observability. Flags are
 * fleet-wide (kept in the kv, in force on every instance within a pub/sub round trip): reading
 * needs `observability:read`, changing one the admin role (403 otherwise). An unknown key is 404.
 */
export function registerFlags(app: Hono<ControlEnv>, deps: ControlPlaneDeps): void {
  app.get('/v1/observability/flags', (c) => c.json({ object: 'list', data: deps.switches.flags().map(toWire) }));

  app.put('/v1/observability/flags/:key', async (c) => {
    const caller = c.get('caller');
    requireAdmin(caller);
    const key = c.req.param('key');
    if (!isFlag(key)) throw notFound(`No feature flag '${key}'; the flags are ${FLAG_KEYS.join(', ')}.`, 'key');
    const body = validate(toggleSchema, await readJson(c, deps.maxBodyBytes));
    return c.json(toWire(await deps.switches.setFlag(key, body.enabled, caller.keyId)));
  });
}
