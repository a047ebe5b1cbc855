import { type Caller, intelligenceModes, memoryScopeSettings, notFound } from '@svc/core';
import { bearer, defineRoute, jsonResponse } from '@svc/openapi';
import { issueToError } from '@svc/protocol';
import * as v from 'valibot';
import { type RouteRegistry, readJson, validate } from '@svc/http-kit';
import type { InferenceDeps } from '../deps.js';
import type { AppEnv } from '../env.js';
import { reportMode } from '../report-mode.js';

const modeMessage = `must be one of ${intelligenceModes.join(', ')}, or null for the system default (full)`;

/** `PUT /v1/settings`: the organisation's defaults. Unknown fields are ignored. */
const settingsSchema = v.object({
  default_intelligence_mode: v.optional(v.nullable(v.picklist(intelligenceModes, modeMessage))),
  memory_scope: v.optional(v.picklist(memoryScopeSettings, `must be one of ${memoryScopeSettings.join(', ')}`)),
});

function settingsWire(org: Caller['org']) {
  return { object: 'settings', org_id: org.id, default_intelligence_mode: org.defaultIntelligenceMode, memory_scope: org.memoryScope ?? 'end_user' };
}

/**
 * `GET /v1/settings` and `PUT /v1/settings {default_intelligence_mode}` (spec document 1 §Memory
 * search and settings): the caller's organisation's default intelligence mode, third in the
 * resolution order (header > body > this > `full`). A change applies to the org's next request
 * on every instance. `PUT` needs `settings:write`.
 */
const settingsAnswer = jsonResponse('The settings (`object: "settings"`, `org_id`, `default_intelligence_mode`, `memory_scope`).');

export const getSettingsRoute = defineRoute({
  method: 'get',
  path: '/v1/settings',
  operationId: 'getSettings',
  summary: "The organisation's settings",
  tags: ['Settings'],
  auth: bearer(),
  responses: { 200: settingsAnswer },
});

export const updateSettingsRoute = defineRoute({
  method: 'put',
  path: '/v1/settings',
  operationId: 'updateSettings',
  summary: "Change the organisation's defaults",
  description:
    '`default_intelligence_mode`: third in the resolution order (header > body > this > `full`). `memory_scope`: `end_user` (default: memory is recalled only for the end user who stated it) or `organization` (recalled across the organisation). Applies to the next request on every instance. Unknown fields are ignored.',
  tags: ['Settings'],
  auth: bearer('settings:write'),
  body: { schema: settingsSchema, name: 'UpdateSettingsRequest' },
  responses: { 200: settingsAnswer },
  errors: [400, 404, 413],
});

export function registerSettings(routes: RouteRegistry<AppEnv>, deps: InferenceDeps): void {
  // The mode these routes would run in (they run no pipeline stage): X-Svc-Intelligence-Mode on their answers.
  const mode = reportMode();
  routes.add(getSettingsRoute, mode, (c) => c.json(settingsWire(c.get('caller').org)));

  routes.add(updateSettingsRoute, mode, async (c) => {
    const caller = c.get('caller');
    const { default_intelligence_mode: mode, memory_scope: memoryScope } = validate(settingsSchema, await readJson(c, deps.maxBodyBytes), issueToError);
    const patch = { ...(mode === undefined ? {} : { defaultIntelligenceMode: mode }), ...(memoryScope === undefined ? {} : { memoryScope }) };
    const org = await deps.db.orgs.update(caller.org.id, patch);
    if (!org) throw notFound('The organisation of this key no longer exists.');
    await deps.authenticator.orgChanged(org.id);
    return c.json(settingsWire(org));
  });
}
