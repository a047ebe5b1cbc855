import { requireSameOrg } from '@svc/auth';
import { type Organization, invalidRequest, notFound } from '@svc/core';
import type { Context } from 'hono';
import type { ControlPlaneDeps } from './deps.js';
import type { ControlEnv } from './env.js';

const maxOrgIdChars = 64;

/**
 * The organisation a per-org operation acts on: the caller's, or `?org_id=` (an admin may name
 * any organisation; anyone else only their own, else 403 `tenant_violation`). 404 when it does
 * not exist (an unknown id, or the caller's organisation was deleted).
 */
export async function targetOrg(c: Context<ControlEnv>, deps: Pick<ControlPlaneDeps, 'db'>): Promise<Organization> {
  const caller = c.get('caller');
  const named = c.req.query('org_id');
  if (named !== undefined && (named === '' || named.length > maxOrgIdChars)) throw invalidRequest(`org_id must be 1 to ${maxOrgIdChars} characters.`, 'org_id');
  const orgId = named ?? caller.org.id;
  requireSameOrg(caller, orgId);
  const org = await deps.db.orgs.get(orgId);
  if (!org) throw notFound(named === undefined ? 'The organisation of this key no longer exists.' : `No organisation '${orgId}'.`, named === undefined ? null : 'org_id');
  return org;
}
