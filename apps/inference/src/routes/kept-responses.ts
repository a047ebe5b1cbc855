import { invalidRequest, notFound } from '@svc/core';
import { bearer, defineRoute, jsonResponse } from '@svc/openapi';
import { type RouteRegistry, validate } from '@svc/http-kit';
import { issueToError } from '@svc/protocol';
import type { StoredResponseRecord } from '@svc/db';
import * as v from 'valibot';
import type { InferenceDeps } from '../deps.js';
import type { AppEnv } from '../env.js';
import { reportMode } from '../report-mode.js';

const tags = ['Responses'];
const idParams = v.object({ response_id: v.pipe(v.string(), v.description('The id of a kept response (`resp_...`).')) });

const pageSize = 'limit must be an integer from 1 to 100';
const inputItemsQuery = v.object({
  limit: v.optional(v.pipe(v.string(), v.regex(/^\d{1,3}$/, pageSize), v.transform(Number), v.minValue(1, pageSize), v.maxValue(100, pageSize)), '20'),
  order: v.optional(v.picklist(['asc', 'desc'], "order must be 'asc' or 'desc'"), 'desc'),
  after: v.optional(v.pipe(v.string(), v.minLength(1, 'after must be the id of an input item'))),
});

const gone = 'Unknown ids, another organisation’s, deleted and expired ones are all a 404 `not_found_error`.';

export const getResponseRoute = defineRoute({
  method: 'get',
  path: '/v1/responses/{response_id}',
  operationId: 'getResponse',
  summary: 'Retrieve a kept response',
  description: `The \`response\` object as \`POST /v1/responses\` answered it (with \`store\` true, the default), for ${'`SVC_RESPONSES_TTL_DAYS`'} days. ${gone}`,
  tags,
  auth: bearer('inference:chat'),
  params: idParams,
  responses: { 200: jsonResponse('The `response` object.') },
  errors: [404],
});

export const deleteResponseRoute = defineRoute({
  method: 'delete',
  path: '/v1/responses/{response_id}',
  operationId: 'deleteResponse',
  summary: 'Delete a kept response',
  description: `Forgets a kept response: it can no longer be retrieved nor continued (\`previous_response_id\`). ${gone}`,
  tags,
  auth: bearer('inference:chat'),
  params: idParams,
  responses: { 200: jsonResponse('`{id, object: "response", deleted: true}`.') },
  errors: [404],
});

export const listInputItemsRoute = defineRoute({
  method: 'get',
  path: '/v1/responses/{response_id}/input_items',
  operationId: 'listInputItems',
  summary: 'List the input items of a kept response',
  description: `The items of the request's own \`input\` (not those of the response it continued), each with an id; \`order\` \`desc\` (default) or \`asc\`, \`after\` an item id, \`limit\` 1-100 (20). ${gone}`,
  tags,
  auth: bearer('inference:chat'),
  params: idParams,
  query: inputItemsQuery,
  responses: { 200: jsonResponse('A `list` of input items with `first_id`, `last_id` and `has_more`.') },
  errors: [400, 404],
});

const unknownResponse = (id: string) => notFound(`No response with id '${id.slice(0, 64)}' in this organisation.`);

/** The caller's kept response `id`, or a 404 naming the id. */
async function keptResponse(deps: InferenceDeps, orgId: string, id: string): Promise<StoredResponseRecord> {
  const kept = await deps.responses.store.get(orgId, id);
  if (!kept) throw unknownResponse(id);
  return kept;
}

/** One page of a response's input items, in `order`, after the item `after`. */
function inputItemsPage(items: readonly Record<string, unknown>[], query: v.InferOutput<typeof inputItemsQuery>) {
  const ordered = query.order === 'asc' ? [...items] : [...items].reverse();
  const start = query.after === undefined ? 0 : ordered.findIndex((item) => item.id === query.after) + 1;
  if (query.after !== undefined && start === 0) throw invalidRequest('after must be the id of an input item of this response.', 'after');
  const data = ordered.slice(start, start + query.limit);
  return { object: 'list', data, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null, has_more: start + query.limit < ordered.length };
}

/** `GET` and `DELETE /v1/responses/{response_id}` and its `input_items`: the caller's organisation's kept responses only. */
export function registerKeptResponses(routes: RouteRegistry<AppEnv>, deps: InferenceDeps): void {
  const mode = reportMode();
  const idOf = (param: string | undefined) => validate(idParams, { response_id: param }, issueToError).response_id;

  routes.add(getResponseRoute, mode, async (c) => {
    const kept = await keptResponse(deps, c.get('caller').org.id, idOf(c.req.param('response_id')));
    return c.json(kept.response);
  });

  routes.add(deleteResponseRoute, mode, async (c) => {
    const id = idOf(c.req.param('response_id'));
    if (!(await deps.responses.store.delete(c.get('caller').org.id, id))) throw unknownResponse(id);
    return c.json({ id, object: 'response', deleted: true });
  });

  routes.add(listInputItemsRoute, mode, async (c) => {
    const query = validate(inputItemsQuery, c.req.query(), issueToError);
    const kept = await keptResponse(deps, c.get('caller').org.id, idOf(c.req.param('response_id')));
    return c.json(inputItemsPage(kept.inputItems, query));
  });
}
