import { requireSameOrg } from '@svc/auth';
import { authorizationError } from '@svc/core';
import type { RouteRegistry } from '@svc/http-kit';
import { adminOnly, bearer, defineRoute, jsonResponse } from '@svc/openapi';
import * as v from 'valibot';
import type { ControlPlaneDeps } from '../deps.js';
import type { ControlEnv } from '../env.js';
import { validate } from '@svc/http-kit';

const maxOrgIdChars = 64;
const purgeQuery = v.object({
  org_id: v.optional(
    v.pipe(
      v.string(),
      v.minLength(1, `must be 1 to ${maxOrgIdChars} characters`),
      v.maxLength(maxOrgIdChars, `must be 1 to ${maxOrgIdChars} characters`),
      v.description("Purge this organisation's entries (your own, or any with the admin role); everything when absent (admin only)."),
    ),
  ),
});

export const cacheStatsRoute = defineRoute({
  method: 'get',
  path: '/v1/observability/cache/stats',
  operationId: 'getCacheStats',
  summary: "This instance's answer-cache counters",
  description:
    "Instance-wide figures (every organisation's requests, the cache's sizes and limits): the admin role only. An organisation's own cache hits are in `GET /v1/observability/metrics/summary`.",
  tags: ['Observability'],
  auth: adminOnly,
  responses: { 200: jsonResponse('Hits, misses and sizes per cache layer.') },
  errors: [403],
});

export const cachePurgeRoute = defineRoute({
  method: 'post',
  path: '/v1/observability/cache/purge',
  operationId: 'purgeCache',
  summary: 'Purge cached answers',
  description: 'Idempotent, on every instance sharing the kv.',
  tags: ['Observability'],
  auth: bearer('observability:read'),
  query: purgeQuery,
  responses: { 204: { description: 'Purged.' } },
  errors: [400],
});

/**
 * `GET /cache/stats` and `POST /cache/purge` (spec document 2), mounted under /v1/observability.
 * Stats are this instance's counters over every organisation, so the admin role reads them. Purge is idempotent: `?org_id=` drops that organisation's
 * entries (a caller may purge its own organisation; an admin any), no parameter drops everything
 * (admin only) — on every instance sharing the kv. 204, no body.
 */
export function registerCache(routes: RouteRegistry<ControlEnv>, deps: ControlPlaneDeps): void {
  routes.add(cacheStatsRoute, (c) => c.json(deps.cache.stats()));

  routes.add(cachePurgeRoute, async (c) => {
    const caller = c.get('caller');
    const orgId = validate(purgeQuery, c.req.query()).org_id;
    const admin = caller.scopes.has('admin');
    if (orgId === undefined) {
      if (!admin) throw authorizationError('forbidden', 'Purging every organisation needs the admin role; pass ?org_id= to purge your own.');
      await deps.cache.purge();
      return c.body(null, 204);
    }
    requireSameOrg(caller, orgId);
    await deps.cache.purge(orgId);
    return c.body(null, 204);
  });
}
