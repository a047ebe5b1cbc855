import { notFound } from '@svc/core';
import type { RouteRegistry } from '@svc/http-kit';
import { adminOnly, bearer, defineRoute, jsonResponse } from '@svc/openapi';
import { FLAG_DESCRIPTIONS, FLAG_KEYS, type FlagState } from '@svc/pipeline';
import * as v from 'valibot';
import { strictBody } from '../strict-body.js';
import type { ControlPlaneDeps } from '../deps.js';
import type { ControlEnv } from '../env.js';
import { validate } from '@svc/http-kit';
import { readJson } from '../read-json.js';

/** `PUT /flags/{key}` body: `{enabled}`, nothing else (another field is a 400 naming it). */
const toggleSchema = strictBody({ enabled: v.boolean('must be true or false') });

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

/** `{key}`: one of the flags; any other is 404 naming `key`. */
const flagKey = v.pipe(v.picklist(FLAG_KEYS), v.description('The feature flag (an unknown one is 404).'));

const tags = ['Observability'];

export const listFlagsRoute = defineRoute({
  method: 'get',
  path: '/v1/observability/flags',
  operationId: 'listFlags',
  summary: 'The feature flags and their state',
  tags,
  auth: bearer('observability:read'),
  responses: { 200: jsonResponse('A `list` of `flag` objects (`key`, `enabled`, `description`, `default_enabled`, `overridden`, `available`, `updated_at`, `updated_by`).') },
});

export const setFlagRoute = defineRoute({
  method: 'put',
  path: '/v1/observability/flags/{key}',
  operationId: 'setFlag',
  summary: 'Turn a feature flag on or off (fleet-wide)',
  description: 'In force on every instance within a pub/sub round trip. Any other field is a 400 naming it.',
  tags,
  auth: adminOnly,
  params: v.object({ key: flagKey }),
  body: { schema: toggleSchema, name: 'FlagToggle' },
  responses: { 200: jsonResponse('The `flag`.') },
  errors: [400, 404, 413],
});

/**
 * `GET /flags`, `PUT /flags/{key}` (spec document 2), mounted under /v1/observability. Flags are
 * fleet-wide (kept in the kv, in force on every instance within a pub/sub round trip): reading
 * needs `observability:read`, changing one the admin role (403 otherwise). An unknown key is 404.
 */
export function registerFlags(routes: RouteRegistry<ControlEnv>, deps: ControlPlaneDeps): void {
  routes.add(listFlagsRoute, (c) => c.json({ object: 'list', data: deps.switches.flags().map(toWire) }));

  routes.add(setFlagRoute, async (c) => {
    const caller = c.get('caller');
    const key = c.req.param('key') ?? '';
    if (!v.is(flagKey, key)) throw notFound(`No feature flag '${key}'; the flags are ${FLAG_KEYS.join(', ')}.`, 'key');
    const body = validate(toggleSchema, await readJson(c, deps.maxBodyBytes));
    return c.json(toWire(await deps.switches.setFlag(key, body.enabled, caller.keyId)));
  });
}
