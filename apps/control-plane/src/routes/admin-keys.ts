import { parseScopes } from '@svc/auth';
import { defaultKeyScopes, invalidRequest, notFound } from '@svc/core';
import { readJson } from '@svc/inference';
import type { Hono } from 'hono';
import * as v from 'valibot';
import type { ControlPlaneDeps } from '../deps.js';
import type { ControlEnv } from '../env.js';
import { validate } from '../validate.js';
import { keyToWire } from './admin-wire.js';

const createSchema = v.object({
  org_id: v.pipe(v.string(), v.minLength(1, 'is required')),
  name: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(100, 'at most 100 characters')))),
  scopes: v.optional(v.array(v.string())),
  expires_at: v.optional(v.nullable(v.pipe(v.string(), v.isoTimestamp('must be an ISO-8601 timestamp')))),
});

export function registerAdminKeys(app: Hono<ControlEnv>, deps: ControlPlaneDeps): void {
  app.post('/v1/admin/keys', async (c) => {
    const body = validate(createSchema, await readJson(c, deps.maxBodyBytes));
    const org = await deps.db.orgs.get(body.org_id).catch(() => undefined);
    if (!org) throw notFound(`No organisation '${body.org_id}'.`, 'org_id');
    const parsed = body.scopes ? parseScopes(body.scopes) : { scopes: [...defaultKeyScopes] };
    if ('unknown' in parsed) throw invalidRequest(`Unknown scope '${parsed.unknown}'.`, 'scopes');
    const expiresAt = body.expires_at ? new Date(body.expires_at) : null;
    if (expiresAt && expiresAt.getTime() <= Date.now()) throw invalidRequest('expires_at must be in the future.', 'expires_at');
    const { record, secret } = await deps.authenticator.issue({ orgId: org.id, name: body.name ?? null, scopes: parsed.scopes, expiresAt });
    const wire = keyToWire(record);
    return c.json({ id: wire.id, key: secret, org_id: wire.org_id, name: wire.name, scopes: wire.scopes, expires_at: wire.expires_at, created_at: wire.created_at }, 201);
  });

  app.get('/v1/admin/keys', async (c) => {
    const orgId = c.req.query('org_id');
    const keys = await deps.db.keys.list(orgId || undefined);
    return c.json({ object: 'list', data: keys.map(keyToWire) });
  });

  app.delete('/v1/admin/keys/:id', async (c) => {
    const record = await deps.authenticator.revoke(c.req.param('id'));
    if (!record) throw notFound(`No API key '${c.req.param('id')}'.`, 'id');
    return c.json({ id: record.id, status: 'revoked' });
  });
}
