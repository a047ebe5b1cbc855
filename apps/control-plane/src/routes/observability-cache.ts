import { requireSameOrg } from '@svc/auth';
import { authorizationError, invalidRequest } from '@svc/core';
import type { Hono } from 'hono';
import type { ControlPlaneDeps } from '../deps.js';
import type { ControlEnv } from '../env.js';

const maxOrgIdChars = 64;

/**
 * `GET /cache/stats` and `POST /cache/purge` (spec document 2), mounted under /v1/observability.
 * Stats are this instance's counters. Purge is idempotent: `?org_id=` drops that organisation's
 * entries (a caller may purge its own organisation; an admin any), no parameter drops everything
 * (admin only) — on every instance sharing the kv. 204, no body.
 */
export function registerCache(app: Hono<ControlEnv>, deps: ControlPlaneDeps): void {
  app.get('/v1/observability/cache/stats', (c) => c.json(deps.cache.stats()));

  app.post('/v1/observability/cache/purge', async (c) => {
    const caller = c.get('caller');
    const orgId = c.req.query('org_id');
    const admin = caller.scopes.has('admin');
    if (orgId === undefined) {
      if (!admin) throw authorizationError('forbidden', 'Purging every organisation needs the admin role; pass ?org_id= to purge your own.');
      await deps.cache.purge();
      return c.body(null, 204);
    }
    if (orgId === '' || orgId.length > maxOrgIdChars) throw invalidRequest(`org_id must be 1 to ${maxOrgIdChars} characters.`, 'org_id');
    requireSameOrg(caller, orgId);
    await deps.cache.purge(orgId);
    return c.body(null, 204);
  });
}
