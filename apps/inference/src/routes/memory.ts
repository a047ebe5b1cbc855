import { bearer, defineRoute, jsonResponse } from '@svc/openapi';
import { issueToError } from '@svc/protocol';
import * as v from 'valibot';
import type { InferenceDeps } from '../deps.js';
import type { AppEnv } from '../env.js';
import { readJson } from '../read-body.js';
import { reportMode } from '../report-mode.js';
import type { RouteRegistry } from '../route-registry.js';

/** Body of `POST /v1/memory/search`; the spec names `query`, the rest are this gateway's additions. */
const searchSchema = v.object({
  query: v.pipe(v.string('query is required and must be a string'), v.trim(), v.minLength(1, 'query must not be empty')),
  limit: v.optional(v.pipe(v.number('limit must be an integer'), v.integer('limit must be an integer'), v.minValue(1), v.maxValue(50)), 10),
  conversation_id: v.optional(v.string('conversation_id must be a string')),
});

/**
 * `POST /v1/memory/search {query, limit?, conversation_id?}` (spec document 1 §Memory search and
 * settings): the caller's organisation's memories closest to `query`, ranked by similarity and
 * recency, never another organisation's. Needs `memory:read`.
 */
export const memorySearchRoute = defineRoute({
  method: 'post',
  path: '/v1/memory/search',
  operationId: 'searchMemory',
  summary: "Search the organisation's memories",
  description: "The caller organisation's memories closest to `query`, ranked by similarity and recency; never another organisation's.",
  tags: ['Memory'],
  auth: bearer('memory:read'),
  body: { schema: searchSchema, name: 'MemorySearchRequest' },
  responses: { 200: jsonResponse('A `list` of `memory` objects, best first.') },
  errors: [400, 413],
});

export function registerMemory(routes: RouteRegistry<AppEnv>, deps: InferenceDeps): void {
  // The mode these routes would run in (they run no pipeline stage): X-Svc-Intelligence-Mode on their answers.
  const mode = reportMode();
  routes.add(memorySearchRoute, mode, async (c) => {
    const caller = c.get('caller');
    const parsed = v.safeParse(searchSchema, await readJson(c, deps.maxBodyBytes), { abortEarly: true });
    if (!parsed.success) throw issueToError(parsed.issues[0]);
    const { query, limit, conversation_id: conversationId } = parsed.output;
    const memories = await deps.memory.recall(caller.org.id, query, { limit, ...(conversationId ? { conversationId } : {}) });
    return c.json({
      object: 'list',
      data: memories.map((memory) => ({
        id: memory.id,
        object: 'memory',
        text: memory.text,
        role: memory.role,
        conversation_id: memory.conversationId,
        entities: memory.entities,
        score: memory.score,
        created_at: Math.floor(memory.createdAt.getTime() / 1000),
      })),
    });
  });
}
