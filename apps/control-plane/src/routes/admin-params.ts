import { notFound } from '@svc/core';
import type { Context } from 'hono';
import * as v from 'valibot';
import type { ControlPlaneDeps } from '../deps.js';
import type { ControlEnv } from '../env.js';

/** `{id}` of `/v1/admin/orgs/{id}/...`: an organisation id (an unknown one is 404 naming `id`). */
export const orgIdParam = v.pipe(v.string(), v.description('The organisation id.'));

/** Path parameters of the routes under `/v1/admin/orgs/{id}`. */
export const orgParams = v.object({ id: orgIdParam });

/** `?month=YYYY-MM` of the spend reports (UTC; the current month when absent). */
export const spendQuery = v.object({
  month: v.optional(v.pipe(v.string(), v.regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'must be YYYY-MM'), v.description('The month (UTC); the current one when absent.'))),
});

/** The organisation in the path, or 404. */
export async function pathOrg(c: Context<ControlEnv>, deps: ControlPlaneDeps) {
  const id = c.req.param('id') ?? '';
  const org = await deps.db.orgs.get(id);
  if (!org) throw notFound(`No organisation '${id}'.`, 'id');
  return org;
}
