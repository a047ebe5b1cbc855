import type { RouteRegistry } from '@svc/http-kit';
import { adminOnly, defineRoute, jsonResponse } from '@svc/openapi';
import * as v from 'valibot';
import { strictBody } from '../strict-body.js';
import type { ControlPlaneDeps } from '../deps.js';
import type { ControlEnv } from '../env.js';
import { validate } from '@svc/http-kit';
import { dashboardUserToWire } from './auth-wire.js';
import { readJson } from '../read-json.js';

const createSchema = strictBody({
  email: v.pipe(v.string('is required'), v.trim(), v.maxLength(254, 'at most 254 characters'), v.email('must be an e-mail address')),
  org_id: v.pipe(v.string('is required'), v.minLength(1, 'is required')),
  role: v.optional(v.picklist(['admin', 'member'], "must be 'admin' or 'member'"), 'member'),
});

const listQuery = v.object({ org_id: v.optional(v.pipe(v.string(), v.description("Only this organisation's users; all when absent or empty."))) });

const tags = ['Admin: dashboard users'];

export const createUserRoute = defineRoute({
  method: 'post',
  path: '/v1/admin/users',
  operationId: 'createDashboardUser',
  summary: 'Create a dashboard user and a one-time enrollment link',
  description: 'The link (`enrollment_url`, shown once) signs the user in at AAL1, only to register a passkey.',
  tags,
  auth: adminOnly,
  body: { schema: createSchema, name: 'CreateDashboardUserRequest' },
  responses: { 201: jsonResponse('The `dashboard_user` with `enrollment_url`.') },
  errors: [400, 404, 409, 413],
});

export const listUsersRoute = defineRoute({
  method: 'get',
  path: '/v1/admin/users',
  operationId: 'listDashboardUsers',
  summary: 'List dashboard users',
  tags,
  auth: adminOnly,
  query: listQuery,
  responses: { 200: jsonResponse('A `list` of `dashboard_user` objects.') },
  errors: [400],
});

export const issueEnrollmentRoute = defineRoute({
  method: 'post',
  path: '/v1/admin/users/{id}/enrollment',
  operationId: 'issueDashboardEnrollment',
  summary: 'A new one-time enrollment link for a user',
  description: 'The previous link stops working.',
  tags,
  auth: adminOnly,
  params: v.object({ id: v.pipe(v.string(), v.description('The dashboard user id.')) }),
  responses: { 201: jsonResponse('`{object: "enrollment", user_id, enrollment_url, expires_at}`.') },
  errors: [404],
});

/**
 * Dashboard users (admin API): creating one returns a one-time enrollment link (shown once)
 * that signs the user in at AAL1, only to register a passkey. A new link voids the previous one.
 */
export function registerAdminUsers(routes: RouteRegistry<ControlEnv>, deps: ControlPlaneDeps): void {
  routes.add(createUserRoute, async (c) => {
    const body = validate(createSchema, await readJson(c, deps.maxBodyBytes));
    const { user, enrollment } = await deps.dashboardAuth.accounts.create({ email: body.email, orgId: body.org_id, role: body.role });
    return c.json({ ...dashboardUserToWire(user), enrollment_url: enrollment.url }, 201);
  });

  routes.add(listUsersRoute, async (c) => {
    const { org_id: orgId } = validate(listQuery, { org_id: c.req.query('org_id') });
    const users = await deps.db.dashboardUsers.list(orgId || undefined);
    return c.json({ object: 'list', data: users.map(dashboardUserToWire) });
  });

  routes.add(issueEnrollmentRoute, async (c) => {
    const id = c.req.param('id') ?? '';
    const enrollment = await deps.dashboardAuth.accounts.issueEnrollment(id);
    return c.json({ object: 'enrollment', user_id: id, enrollment_url: enrollment.url, expires_at: enrollment.expiresAt.toISOString() }, 201);
  });
}
