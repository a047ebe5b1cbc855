import { notFound } from '@svc/core';
import type { RouteRegistry } from '@svc/http-kit';
import { memoryToWire } from '@svc/protocol';
import { endUserSubject } from '@svc/memory';
import { adminOnly, defineRoute, jsonResponse } from '@svc/openapi';
import * as v from 'valibot';
import type { ControlPlaneDeps } from '../deps.js';
import type { ControlEnv } from '../env.js';
import { validate } from '@svc/http-kit';
import { orgIdParam, pathOrg } from './admin-params.js';

const userQuery = v.object({
  user: v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(256, 'at most 256 characters'), v.description('The end user id, as the application sends it (`user`, `x-svc-user`).')),
});
const memoryParams = v.object({ id: orgIdParam, memory: v.pipe(v.string(), v.description('The memory id.')) });
const tags = ['Admin: organisations'];

export const adminListMemoryRoute = defineRoute({
  method: 'get',
  path: '/v1/admin/orgs/{id}/memory',
  operationId: 'listOrganizationMemory',
  summary: "An end user's memory in an organisation",
  description: 'The stated facts of one end user of the organisation, most recently stated first (at most 100).',
  tags,
  auth: adminOnly,
  params: v.object({ id: orgIdParam }),
  query: userQuery,
  responses: { 200: jsonResponse('A `list` of `memory` objects.') },
  errors: [400, 404],
});

export const adminForgetUserRoute = defineRoute({
  method: 'delete',
  path: '/v1/admin/orgs/{id}/memory',
  operationId: 'forgetOrganizationEndUser',
  summary: 'Forget an end user of an organisation',
  description: 'Removes every fact of the end user `?user=`, on every instance at once.',
  tags,
  auth: adminOnly,
  params: v.object({ id: orgIdParam }),
  query: userQuery,
  responses: { 200: jsonResponse('`{object: "memory.forgotten", user, deleted}`.') },
  errors: [400, 404],
});

export const adminDeleteMemoryRoute = defineRoute({
  method: 'delete',
  path: '/v1/admin/orgs/{id}/memory/{memory}',
  operationId: 'deleteOrganizationMemory',
  summary: 'Delete one memory of an organisation',
  tags,
  auth: adminOnly,
  params: memoryParams,
  responses: { 200: jsonResponse('`{id, object: "memory.deleted", deleted: true}`.') },
  errors: [404],
});

/** The admin's view of organisations' memory: the same operations as `/v1/memory`, for any organisation. */
export function registerAdminMemory(routes: RouteRegistry<ControlEnv>, deps: ControlPlaneDeps): void {
  routes.add(adminListMemoryRoute, async (c) => {
    const org = await pathOrg(c, deps);
    const { user } = validate(userQuery, c.req.query());
    const memories = await deps.memory.list(org.id, { subject: endUserSubject(org.id, user), limit: 100 });
    return c.json({
      object: 'list',
      data: memories.map(memoryToWire),
    });
  });

  routes.add(adminForgetUserRoute, async (c) => {
    const org = await pathOrg(c, deps);
    const { user } = validate(userQuery, c.req.query());
    const deleted = await deps.memory.forgetSubject(org.id, endUserSubject(org.id, user));
    return c.json({ object: 'memory.forgotten', user, deleted: deleted.length });
  });

  routes.add(adminDeleteMemoryRoute, async (c) => {
    const org = await pathOrg(c, deps);
    const id = c.req.param('memory') ?? '';
    const deleted = await deps.memory.forget(org.id, [id]);
    if (deleted.length === 0) throw notFound(`No memory '${id.slice(0, 64)}' in this organisation.`, 'memory');
    return c.json({ id, object: 'memory.deleted', deleted: true });
  });
}
