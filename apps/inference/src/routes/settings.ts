import { requireScope } from '@svc/auth';
import { type Caller, intelligenceModes, notFound } from '@svc/core';
import { issueToError } from '@svc/protocol';
import type { Hono } from 'hono';
import * as v from 'valibot';
import type { InferenceDeps } from '../deps.js';
import type { AppEnv } from '../env.js';
import { readJson } from '../read-body.js';

const modeMessage = `must be one of ${intelligenceModes.join(', ')}, or null for the system default (full)`;

/** `PUT /v1/settings`: the organisation's defaults. Unknown fields are ignored; the spec names only this one. */
const settingsSchema = v.object({
  default_intelligence_mode: v.optional(v.nullable(v.picklist(intelligenceModes, modeMessage))),
});

function settingsWire(org: Caller['org']) {
  return { object: 'settings', org_id: org.id, default_intelligence_mode: org.defaultIntelligenceMode };
}

/**
 * `GET /v1/settings` and `PUT /v1/settings {default_intelligence_mode}` (spec document 1 §Memory
 * search and settings): the caller's organisation's default intelligence mode, third in the
 * resolution order (header > body > this > `full`). A change applies to the org's next request
 * on every instance. `PUT` needs `settings:write`.
 */
export function registerSettings(app: Hono<AppEnv>, deps: InferenceDeps): void {
  app.get('/v1/settings', (c) => c.json(settingsWire(c.get('caller').org)));

  app.put('/v1/settings', async (c) => {
    const caller = c.get('caller');
    requireScope(caller, 'settings:write');
    const parsed = v.safeParse(settingsSchema, await readJson(c, deps.maxBodyBytes), { abortEarly: true });
    if (!parsed.success) throw issueToError(parsed.issues[0]);
    const patch = parsed.output.default_intelligence_mode === undefined ? {} : { defaultIntelligenceMode: parsed.output.default_intelligence_mode };
    const org = await deps.db.orgs.update(caller.org.id, patch);
    if (!org) throw notFound('The organisation of this key no longer exists.');
    await deps.authenticator.orgChanged(org.id);
    return c.json(settingsWire(org));
  });
}
