import { type Caller, invalidRequest, notFound } from '@svc/core';
import { endUserSubject, memoryScopeOf, type RecallScope } from '@svc/memory';
import { bearer, defineRoute, jsonResponse } from '@svc/openapi';
import { type RouteRegistry, readJson, validate } from '@svc/http-kit';
import { issueToError, memoryToWire } from '@svc/protocol';
import type { Context } from 'hono';
import * as v from 'valibot';
import type { InferenceDeps } from '../deps.js';
import type { AppEnv } from '../env.js';
import { reportMode } from '../report-mode.js';
import { endUserHeader } from '../request-context.js';

const endUser = v.pipe(v.string('user must be a string'), v.trim(), v.minLength(1, 'user must not be empty'), v.maxLength(256, 'user must be at most 256 characters'));

/** Body of `POST /v1/memory/search`; the spec names `query`, the rest are this gateway's additions. */
const searchSchema = v.object({
  query: v.pipe(v.string('query is required and must be a string'), v.trim(), v.minLength(1, 'query must not be empty')),
  limit: v.optional(v.pipe(v.number('limit must be an integer'), v.integer('limit must be an integer'), v.minValue(1), v.maxValue(50)), 10),
  conversation_id: v.optional(v.string('conversation_id must be a string')),
  user: v.optional(endUser),
});

const listQuery = v.object({
  user: v.optional(endUser),
  limit: v.optional(v.pipe(v.string(), v.regex(/^\d{1,3}$/, 'limit must be an integer from 1 to 100'), v.transform(Number), v.minValue(1, 'limit must be an integer from 1 to 100'), v.maxValue(100, 'limit must be an integer from 1 to 100')), '20'),
  after: v.optional(v.pipe(v.string(), v.uuid('after must be the id of a memory'))),
});

const forgetQuery = v.object({ user: endUser });
const idParams = v.object({ id: v.pipe(v.string(), v.description('The memory id.')) });

const tags = ['Memory'];

export const memorySearchRoute = defineRoute({
  method: 'post',
  path: '/v1/memory/search',
  operationId: 'searchMemory',
  summary: "Search the caller's memory",
  description:
    "The stated facts closest to `query` in the caller's scope: the end user named by `x-svc-user` or `user`, else the key's user-less memory; the whole organisation when it set `memory_scope: organization`. Never another organisation's.",
  tags,
  auth: bearer('memory:read'),
  body: { schema: searchSchema, name: 'MemorySearchRequest' },
  responses: { 200: jsonResponse('A `list` of `memory` objects, best first.') },
  errors: [400, 413],
});

export const listMemoryRoute = defineRoute({
  method: 'get',
  path: '/v1/memory',
  operationId: 'listMemory',
  summary: "List the caller's memory",
  description: 'The facts of one end user (`?user=` or `x-svc-user`), else the key’s user-less memory, most recently stated first; `after` pages on.',
  tags,
  auth: bearer('memory:read'),
  query: listQuery,
  responses: { 200: jsonResponse('A `list` of `memory` objects with `has_more`.') },
  errors: [400],
});

export const deleteMemoryRoute = defineRoute({
  method: 'delete',
  path: '/v1/memory/{id}',
  operationId: 'deleteMemory',
  summary: 'Delete one memory',
  description: "Removes one fact of the caller's organisation, on every instance.",
  tags,
  auth: bearer('memory:write'),
  params: idParams,
  responses: { 200: jsonResponse('`{id, object: "memory.deleted", deleted: true}`.') },
  errors: [404],
});

export const forgetUserRoute = defineRoute({
  method: 'delete',
  path: '/v1/memory',
  operationId: 'forgetEndUser',
  summary: 'Forget an end user',
  description: 'Removes every fact of the end user `?user=` in the caller’s organisation, on every instance at once.',
  tags,
  auth: bearer('memory:write'),
  query: forgetQuery,
  responses: { 200: jsonResponse('`{object: "memory.forgotten", user, deleted: <count>}`.') },
  errors: [400],
});

/** The caller's scope: the header's end user wins over the body's or the query's. */
function callerScope(c: Context<AppEnv>, caller: Caller, user: string | undefined, conversationId?: string) {
  return memoryScopeOf({ orgId: caller.org.id, keyId: caller.keyId, endUser: endUserHeader(c).endUser ?? user, conversationId });
}

export function registerMemory(routes: RouteRegistry<AppEnv>, deps: InferenceDeps): void {
  // The mode these routes would run in (they run no pipeline stage): X-Svc-Intelligence-Mode on their answers.
  const mode = reportMode();
  routes.add(memorySearchRoute, mode, async (c) => {
    const caller = c.get('caller');
    const { query, limit, conversation_id: conversationId, user } = validate(searchSchema, await readJson(c, deps.maxBodyBytes), issueToError);
    const scope = callerScope(c, caller, user, conversationId);
    const recall: RecallScope = caller.org.memoryScope === 'organization' ? { orgId: scope.orgId, ...(conversationId ? { conversationId } : {}) } : scope;
    const memories = await deps.memory.recall(recall, query, { limit });
    return c.json({ object: 'list', data: memories.map(memoryToWire) });
  });

  routes.add(listMemoryRoute, mode, async (c) => {
    const caller = c.get('caller');
    const { user, limit, after } = validate(listQuery, c.req.query(), issueToError);
    const { subject } = callerScope(c, caller, user);
    const cursor = after ? await cursorOf(deps, caller.org.id, subject, after) : undefined;
    const page = await deps.memory.list(caller.org.id, { subject, limit: Number(limit) + 1, ...(cursor ? { after: cursor } : {}) });
    const data = page.slice(0, Number(limit)).map(memoryToWire);
    return c.json({ object: 'list', data, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null, has_more: page.length > Number(limit) });
  });

  routes.add(deleteMemoryRoute, mode, async (c) => {
    const caller = c.get('caller');
    const { id } = validate(idParams, { id: c.req.param('id') }, issueToError);
    const deleted = await deps.memory.forget(caller.org.id, [id]);
    if (deleted.length === 0) throw notFound(`No memory '${id.slice(0, 64)}' in this organisation.`);
    return c.json({ id, object: 'memory.deleted', deleted: true });
  });

  routes.add(forgetUserRoute, mode, async (c) => {
    const caller = c.get('caller');
    const { user } = validate(forgetQuery, c.req.query(), issueToError);
    const deleted = await deps.memory.forgetSubject(caller.org.id, endUserSubject(caller.org.id, user));
    return c.json({ object: 'memory.forgotten', user, deleted: deleted.length });
  });
}

/** The page cursor of `after`: that memory's place in the order, when it is the caller's. */
async function cursorOf(deps: InferenceDeps, orgId: string, subject: string, after: string) {
  const [memory] = await deps.memory.get(orgId, [after]);
  if (!memory || memory.subject !== subject) throw invalidRequest('after must be the id of a memory in this scope.', 'after');
  return { id: memory.id, updatedAt: memory.updatedAt };
}
