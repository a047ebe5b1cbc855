import type { RouteRegistry } from '@svc/http-kit';
import { adminOnly, defineRoute, jsonResponse } from '@svc/openapi';
import * as v from 'valibot';
import { strictBody } from '../strict-body.js';
import { listAnswer, listPageQuery, pageRequest } from './admin-list.js';
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

const listQuery = v.object({ org_id: v.optional(v.pipe(v.string(), v.description("Only this organisation's users; all when absent or empty."))), ...listPageQuery });

const patchSchema = strictBody({
  role: v.optional(v.picklist(['admin', 'member'], "must be 'admin' or 'member'")),
  disabled: v.optional(v.boolean('must be true or false')),
});

const userParams = v.object({ id: v.pipe(v.string(), v.description('The dashboard user id.')) });

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
  responses: { 200: jsonResponse('A page of `dashboard_user` objects, oldest first: `{object: "list", data, has_more, first_id, last_id}`; `after=<last_id>` asks for the next.') },
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
  params: userParams,
  responses: { 201: jsonResponse('`{object: "enrollment", user_id, enrollment_url, expires_at}`.') },
  errors: [404],
});

export const updateUserRoute = defineRoute({
  method: 'patch',
  path: '/v1/admin/users/{id}',
  operationId: 'updateDashboardUser',
  summary: "Change a dashboard user's role, or disable or enable them",
  description:
    "`disabled: true` ends every session of the user at once, on every instance, and refuses their sign-ins and enrollment links until `disabled: false`. A role change applies to each session's next request (a former admin sees only their organisation at once).",
  tags,
  auth: adminOnly,
  params: userParams,
  body: { schema: patchSchema, name: 'UpdateDashboardUserRequest' },
  responses: { 200: jsonResponse('The `dashboard_user`.') },
  errors: [400, 404, 413],
});

export const deleteUserRoute = defineRoute({
  method: 'delete',
  path: '/v1/admin/users/{id}',
  operationId: 'deleteDashboardUser',
  summary: 'Delete a dashboard user, their passkeys and sessions',
  tags,
  auth: adminOnly,
  params: userParams,
  responses: { 200: jsonResponse('`{id, object: "dashboard_user", deleted: true}`.') },
  errors: [404],
});

export const endUserSessionsRoute = defineRoute({
  method: 'delete',
  path: '/v1/admin/users/{id}/sessions',
  operationId: 'endDashboardUserSessions',
  summary: "End every session of a dashboard user, on every instance",
  description: 'The user signs in again with a passkey; nothing else changes.',
  tags,
  auth: adminOnly,
  params: userParams,
  responses: { 200: jsonResponse('`{object: "dashboard_user_sessions", user_id, ended: true}`.') },
  errors: [404],
});

/**
 * Dashboard users (admin API): creating one returns a one-time enrollment link (shown once)
 * that signs the user in at AAL1, only to register a passkey. A new link voids the previous one.
 * Disabling or deleting a user, or ending their sessions, signs them out on every instance.
 */
export function registerAdminUsers(routes: RouteRegistry<ControlEnv>, deps: ControlPlaneDeps): void {
  routes.add(createUserRoute, async (c) => {
    const body = validate(createSchema, await readJson(c, deps.maxBodyBytes));
    const { user, enrollment } = await deps.dashboardAuth.accounts.create({ email: body.email, orgId: body.org_id, role: body.role });
    return c.json({ ...dashboardUserToWire(user), enrollment_url: enrollment.url }, 201);
  });

  routes.add(listUsersRoute, async (c) => {
    const query = validate(listQuery, c.req.query());
    return c.json(listAnswer(await deps.db.dashboardUsers.page({ orgId: query.org_id || undefined, ...pageRequest(query) }), dashboardUserToWire));
  });

  routes.add(updateUserRoute, async (c) => {
    const body = validate(patchSchema, await readJson(c, deps.maxBodyBytes));
    const user = await deps.dashboardAuth.accounts.update(c.req.param('id') ?? '', {
      ...(body.role === undefined ? {} : { role: body.role }),
      ...(body.disabled === undefined ? {} : { disabled: body.disabled }),
    });
    return c.json(dashboardUserToWire(user));
  });

  routes.add(deleteUserRoute, async (c) => {
    const id = c.req.param('id') ?? '';
    await deps.dashboardAuth.accounts.delete(id);
    return c.json({ id, object: 'dashboard_user', deleted: true });
  });

  routes.add(endUserSessionsRoute, async (c) => {
    const user = await deps.dashboardAuth.accounts.endSessions(c.req.param('id') ?? '');
    return c.json({ object: 'dashboard_user_sessions', user_id: user.id, ended: true });
  });

  routes.add(issueEnrollmentRoute, async (c) => {
    const id = c.req.param('id') ?? '';
    const enrollment = await deps.dashboardAuth.accounts.issueEnrollment(id);
    return c.json({ object: 'enrollment', user_id: id, enrollment_url: enrollment.url, expires_at: enrollment.expiresAt.toISOString() }, 201);
  });
}
