import type { LegacyMemoryRecord } from '@svc/db';
import type { RouteRegistry } from '@svc/http-kit';
import { validate } from '@svc/http-kit';
import { adminOnly, defineRoute, jsonResponse } from '@svc/openapi';
import * as v from 'valibot';
import type { ControlPlaneDeps } from '../deps.js';
import type { ControlEnv } from '../env.js';
import { integerParam } from '../integer-param.js';
import { orgIdParam, pathOrg } from './admin-params.js';

const listQuery = v.strictObject({
  limit: v.optional(v.pipe(integerParam, v.minValue(1, 'must be at least 1'), v.maxValue(1000, 'must be at most 1000')), '100'),
  after: v.optional(v.pipe(v.string(), v.regex(/^\d{1,15}_[0-9a-f-]{36}$/, 'must be a next_cursor of an earlier page'), v.description('`next_cursor` of the previous page.'))),
});
const tags = ['Admin: organisations'];
const description =
  'Memories kept by releases before 27 November 2026: verbatim lines (the end users\' messages and the assistant\'s answers) shared by the whole organisation. The memory contract since then stores end users\' stated facts in their own scope and cannot attribute these lines to anyone, so they are never recalled; the upgrade kept them here instead of deleting them (docs/operations.md "Upgrading").';

export const adminListLegacyMemoryRoute = defineRoute({
  method: 'get',
  path: '/v1/admin/orgs/{id}/legacy-memory',
  operationId: 'listOrganizationLegacyMemory',
  summary: "An organisation's memories from before the per-user contract",
  description: `${description} Newest first; \`has_more\` and \`next_cursor\` page through them.`,
  tags,
  auth: adminOnly,
  params: v.object({ id: orgIdParam }),
  query: listQuery,
  responses: { 200: jsonResponse('A `list` of `legacy_memory` objects.') },
  errors: [400, 404],
});

export const adminDeleteLegacyMemoryRoute = defineRoute({
  method: 'delete',
  path: '/v1/admin/orgs/{id}/legacy-memory',
  operationId: 'deleteOrganizationLegacyMemory',
  summary: "Delete an organisation's memories from before the per-user contract",
  description,
  tags,
  auth: adminOnly,
  params: v.object({ id: orgIdParam }),
  responses: { 200: jsonResponse('`{object: "legacy_memory.deleted", deleted}`.') },
  errors: [404],
});

const cursorOf = (row: LegacyMemoryRecord): string => `${row.createdAt.getTime()}_${row.id}`;

function parseCursor(cursor: string | undefined): { id: string; createdAt: Date } | undefined {
  if (!cursor) return undefined;
  const [at = '0', id = ''] = cursor.split('_');
  return { id, createdAt: new Date(Number(at)) };
}

const toWire = (row: LegacyMemoryRecord) => ({
  id: row.id,
  object: 'legacy_memory',
  role: row.role,
  text: row.text,
  conversation_id: row.conversationId,
  entities: row.entities,
  created_at: Math.floor(row.createdAt.getTime() / 1000),
});

/** The admin's view of memories from before migration 0009 (db.legacyMemories): read and delete, never recalled. */
export function registerAdminLegacyMemory(routes: RouteRegistry<ControlEnv>, deps: ControlPlaneDeps): void {
  routes.add(adminListLegacyMemoryRoute, async (c) => {
    const org = await pathOrg(c, deps);
    const query = validate(listQuery, c.req.query());
    const rows = await deps.db.legacyMemories.list(org.id, { limit: query.limit + 1, before: parseCursor(query.after) });
    const page = rows.slice(0, query.limit);
    const more = rows.length > query.limit;
    return c.json({ object: 'list', data: page.map(toWire), has_more: more, next_cursor: more ? cursorOf(page.at(-1)!) : null });
  });

  routes.add(adminDeleteLegacyMemoryRoute, async (c) => {
    const org = await pathOrg(c, deps);
    return c.json({ object: 'legacy_memory.deleted', deleted: await deps.db.legacyMemories.deleteByOrg(org.id) });
  });
}
