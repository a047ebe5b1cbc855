import { type Caller, invalidRequest, notFound, randomId } from '@svc/core';
import type { BatchRecord } from '@svc/db';
import { type RouteDescriptor, bearer, defineRoute, jsonResponse } from '@svc/openapi';
import { type RouteRegistry, STORED_JSON_RULES, readJson, validate } from '@svc/http-kit';
import { type CreateMessageBatchRequest, createMessageBatchSchema, issueToError } from '@svc/protocol';
import type { Context } from 'hono';
import * as v from 'valibot';
import { EXPIRED_STATUS, isEnded, messageBatchObject } from '../batches/message-batch-object.js';
import { createHoldingBatch } from '../batches/batch-budget.js';
import { messageBatchResults } from '../batches/message-batch-results.js';
import type { InferenceDeps } from '../deps.js';
import type { AppEnv } from '../env.js';
import { publicBaseUrl } from '../public-url.js';

const ENDPOINT = '/v1/messages';
const WINDOW_MS = 86_400_000;
const idParams = v.object({ message_batch_id: v.pipe(v.string(), v.description('The id of a Message Batch (`msgbatch_...`).')) });
const gone = 'Unknown ids and another organisation’s are a 404 `not_found_error`.';
const pageSize = 'limit must be an integer from 1 to 1000';
const listQuery = v.object({
  limit: v.optional(v.pipe(v.string(), v.regex(/^\d{1,4}$/, pageSize), v.transform(Number), v.minValue(1, pageSize), v.maxValue(1000, pageSize)), '20'),
  after_id: v.optional(v.pipe(v.string(), v.minLength(1, 'after_id must be the id of a Message Batch'))),
  before_id: v.optional(v.pipe(v.string(), v.check(() => false, 'before_id is not supported: page with after_id'))),
});

/** Every Message Batch route: Anthropic's tag, key and error envelope. */
const route = (spec: Omit<Parameters<typeof defineRoute>[0], 'tags' | 'auth' | 'errorFormat'>): RouteDescriptor =>
  defineRoute({ ...spec, tags: ['Message Batches'], auth: bearer('inference:chat'), errorFormat: 'anthropic' });
const withId = { params: idParams, errors: [404] as const };

export const createMessageBatchRoute = route({
  method: 'post',
  path: '/v1/messages/batches',
  operationId: 'createMessageBatch',
  summary: 'Create a Message Batch (Anthropic)',
  description: 'Runs Messages requests in the background within 24 h: those naming an OpenAI or Anthropic model through that provider’s own batch API at its batch price, the others through the same pipeline as `POST /v1/messages` at interactive prices; each `params` is validated when it runs (an invalid one is that request\'s `errored` result).',
  body: { schema: createMessageBatchSchema, name: 'CreateMessageBatchRequest' },
  responses: { 200: jsonResponse('The `message_batch`.') },
  errors: [400, 402],
});
export const listMessageBatchesRoute = route({
  method: 'get',
  path: '/v1/messages/batches',
  operationId: 'listMessageBatches',
  summary: 'List Message Batches',
  description: "The organisation's Message Batches, newest first, `limit` 1-1000 (20) after `after_id`.",
  query: listQuery,
  responses: { 200: jsonResponse('`{data, has_more, first_id, last_id}`.') },
  errors: [400],
});
export const getMessageBatchRoute = route({ method: 'get', path: '/v1/messages/batches/{message_batch_id}', operationId: 'retrieveMessageBatch', summary: 'Retrieve a Message Batch', description: gone, ...withId, responses: { 200: jsonResponse('The `message_batch`.') } });
export const cancelMessageBatchRoute = route({
  method: 'post',
  path: '/v1/messages/batches/{message_batch_id}/cancel',
  operationId: 'cancelMessageBatch',
  summary: 'Cancel a Message Batch',
  description: `It turns \`canceling\`: no new request starts, then it ends; the requests not run are \`canceled\` results. ${gone}`,
  ...withId,
  responses: { 200: jsonResponse('The `message_batch`.') },
});
export const messageBatchResultsRoute = route({
  method: 'get',
  path: '/v1/messages/batches/{message_batch_id}/results',
  operationId: 'messageBatchResults',
  summary: 'The results of an ended Message Batch',
  description: `JSONL, one \`{custom_id, result}\` a request in request order. Before the batch ended: 400. ${gone}`,
  params: idParams,
  responses: { 200: { description: 'The results, JSONL.', content: { 'application/x-jsonl': null } } },
  errors: [400, 404],
});
export const deleteMessageBatchRoute = route({
  method: 'delete',
  path: '/v1/messages/batches/{message_batch_id}',
  operationId: 'deleteMessageBatch',
  summary: 'Delete an ended Message Batch',
  description: `Its results go with it. Before it ended: 400 (cancel it first). ${gone}`,
  params: idParams,
  responses: { 200: jsonResponse('`{id, type: "message_batch_deleted"}`.') },
  errors: [400, 404],
});

const unknownBatch = (id: string) => notFound(`No Message Batch with id '${id.slice(0, 64)}' in this organisation.`, 'message_batch_id');

function newMessageBatch(caller: Caller, request: CreateMessageBatchRequest) {
  const now = new Date();
  const batch = { id: `msgbatch_${randomId(24)}`, orgId: caller.org.id, keyId: caller.keyId, endpoint: ENDPOINT, inputFileId: '', completionWindow: '24h', status: 'validating' as const, metadata: null, errors: null, total: request.requests.length, createdAt: now, expiresAt: new Date(now.getTime() + WINDOW_MS) };
  return { batch, lines: request.requests.map((line) => ({ customId: line.custom_id, body: line.params })) };
}

/** The Message Batch object, its results URL on the gateway, and its expired requests counted. */
async function present(deps: InferenceDeps, c: Context<AppEnv>, batch: BatchRecord) {
  const expired = batch.status === 'expired' ? await deps.batches.countAnswered(batch.id, EXPIRED_STATUS) : 0;
  return messageBatchObject(batch, `${publicBaseUrl(c, deps.publicUrl)}/v1/messages/batches/${batch.id}/results`, expired);
}

/** `/v1/messages/batches`: Anthropic's Message Batches on the gateway's batch worker. */
export function registerMessageBatches(routes: RouteRegistry<AppEnv>, deps: InferenceDeps): void {
  const own = async (c: Context<AppEnv>): Promise<BatchRecord> => {
    const id = validate(idParams, { message_batch_id: c.req.param('message_batch_id') }, issueToError).message_batch_id;
    const batch = await deps.batches.get(c.get('caller').org.id, id);
    if (!batch || batch.endpoint !== ENDPOINT) throw unknownBatch(id);
    return batch;
  };

  routes.add(createMessageBatchRoute, async (c) => {
    const caller = c.get('caller');
    const { batch, lines } = newMessageBatch(caller, validate(createMessageBatchSchema, await readJson(c, deps.maxBodyBytes, STORED_JSON_RULES), issueToError));
    const created = await createHoldingBatch(deps, caller, batch, lines);
    deps.batchWorker?.wake();
    return c.json(await present(deps, c, created));
  });

  routes.add(listMessageBatchesRoute, async (c) => {
    const query = validate(listQuery, c.req.query(), issueToError);
    const page = await deps.batches.list(c.get('caller').org.id, { limit: query.limit, after: query.after_id, endpoints: [ENDPOINT] });
    const data = await Promise.all(page.data.map((batch) => present(deps, c, batch)));
    return c.json({ data, has_more: page.hasMore, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null });
  });

  routes.add(getMessageBatchRoute, async (c) => c.json(await present(deps, c, await own(c))));

  routes.add(cancelMessageBatchRoute, async (c) => {
    const batch = await own(c);
    const moved = await deps.batches.transition(batch.id, ['validating', 'in_progress'], { status: 'cancelling', times: { cancelling_at: Math.floor(Date.now() / 1000) } });
    return c.json(await present(deps, c, moved ?? (await own(c))));
  });

  routes.add(messageBatchResultsRoute, async (c) => {
    const batch = await own(c);
    if (!isEnded(batch)) throw invalidRequest('The results of a Message Batch are available once it has ended.', 'message_batch_id');
    return c.body(messageBatchResults(deps.batches, batch.id), 200, { 'content-type': 'application/x-jsonl' });
  });

  routes.add(deleteMessageBatchRoute, async (c) => {
    const batch = await own(c);
    if (!(await deps.batches.delete(batch.orgId, batch.id, ['completed', 'cancelled', 'expired', 'failed']))) throw invalidRequest('A Message Batch can be deleted once it has ended: cancel it first.', 'message_batch_id');
    return c.json({ id: batch.id, type: 'message_batch_deleted' });
  });
}
