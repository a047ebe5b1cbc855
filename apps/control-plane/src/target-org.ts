import { requireSameOrg } from '@svc/auth';
import { type Organization, notFound } from '@svc/core';
import type { Context } from 'hono';
import * as v from 'valibot';
import type { ControlPlaneDeps } from './deps.js';
import type { ControlEnv } from './env.js';
import { validate } from '@svc/http-kit';

const maxOrgIdChars = 64;
const orgIdMessage = `must be 1 to ${maxOrgIdChars} characters`;

/** The query of a per-org operation (the one its descriptor publishes and {@link targetOrg} validates). */
export const targetOrgQuery = v.object({
  org_id: v.optional(
    v.pipe(
      v.string(),
      v.minLength(1, orgIdMessage),
      v.maxLength(maxOrgIdChars, orgIdMessage),
      v.description("Act on this organisation instead of the key's own: any with an admin key, otherwise only the key's own (403 `tenant_violation`)."),
    ),
  ),
});

/**
 * The organisation a per-org operation acts on: the caller's, or `?org_id=` (an admin may name
 * any organisation; anyone else only their own, else 403 `tenant_violation`). 404 when it does
 * not exist (an unknown id, or the caller's organisation was deleted).
 */
export async function targetOrg(c: Context<ControlEnv>, deps: Pick<ControlPlaneDeps, 'db'>): Promise<Organization> {
  const caller = c.get('caller');
  const { org_id: named } = validate(targetOrgQuery, { org_id: c.req.query('org_id') });
  const orgId = named ?? caller.org.id;
  requireSameOrg(caller, orgId);
  const org = await deps.db.orgs.get(orgId);
  if (!org) throw notFound(named === undefined ? 'The organisation of this key no longer exists.' : `No organisation '${orgId}'.`, named === undefined ? null : 'org_id');
  return org;
}
