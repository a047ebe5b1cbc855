import { requireScope } from '@svc/auth';
import { type Caller, batchId, invalidRequest, notFound } from '@svc/core';
import type { BatchRecord, FileRecord, NewBatch } from '@svc/db';
import { bearer, defineRoute, jsonResponse } from '@svc/openapi';
import { type RouteRegistry, STORED_JSON_RULES, readJson, validate } from '@svc/http-kit';
import { BatchInputReader, type BatchInputResult, type CreateBatchRequest, batchEndpoints, createBatchRequestSchema, issueToError } from '@svc/protocol';
import * as v from 'valibot';
import { createHoldingBatch } from '../batches/batch-budget.js';
import { batchCost } from '../batches/batch-cost.js';
import { batchObject } from '../batches/batch-object.js';
import type { InferenceDeps } from '../deps.js';
import type { AppEnv } from '../env.js';
import { fileLines } from '../files/file-store.js';

const tags = ['Batches'];
const auth = bearer('inference:chat');
const idParams = v.object({ batch_id: v.pipe(v.string(), v.description('The id of a batch (`batch_...`).')) });
const gone = 'Unknown ids and another organisation’s are a 404 `not_found_error`.';
const WINDOW_MS = 86_400_000;

const pageSize = 'limit must be an integer from 1 to 100';
const listQuery = v.object({
  limit: v.optional(v.pipe(v.string(), v.regex(/^\d{1,3}$/, pageSize), v.transform(Number), v.minValue(1, pageSize), v.maxValue(100, pageSize)), '20'),
  after: v.optional(v.pipe(v.string(), v.minLength(1, 'after must be the id of a batch'))),
});

export const createBatchRoute = defineRoute({
  method: 'post',
  path: '/v1/batches',
  operationId: 'createBatch',
  summary: 'Create a batch',
  description:
    'Runs the requests of a JSONL file (purpose `batch`) for `/v1/chat/completions`, `/v1/responses` or `/v1/embeddings` in the background, within `24h`: chat lines naming an OpenAI or Anthropic model through that provider’s own batch API at its batch price, the others through the same pipeline as the interactive endpoint at interactive prices. A malformed file makes a `failed` batch whose `errors` name the lines.',
  tags,
  auth,
  body: { schema: createBatchRequestSchema, name: 'CreateBatchRequest' },
  responses: { 200: jsonResponse('The `batch` object.') },
  errors: [400, 402, 403, 404],
});

export const listBatchesRoute = defineRoute({
  method: 'get',
  path: '/v1/batches',
  operationId: 'listBatches',
  summary: 'List batches',
  description: "The organisation's batches, newest first, `limit` 1-100 (20) after the batch `after`.",
  tags,
  auth,
  query: listQuery,
  responses: { 200: jsonResponse('A `list` of `batch` objects with `first_id`, `last_id` and `has_more`.') },
  errors: [400],
});

export const getBatchRoute = defineRoute({
  method: 'get',
  path: '/v1/batches/{batch_id}',
  operationId: 'retrieveBatch',
  summary: 'Retrieve a batch',
  description: `With \`svc_metadata\` (an svc extension): \`billed_lines\`, \`cost_usd\`, \`interactive_cost_usd\` (what the billed lines would have cost at interactive prices), \`savings_usd\` and \`savings_pct\`, from the ledger as the lines are billed. ${gone}`,
  tags,
  auth,
  params: idParams,
  responses: { 200: jsonResponse('The `batch` object.') },
  errors: [404],
});

export const cancelBatchRoute = defineRoute({
  method: 'post',
  path: '/v1/batches/{batch_id}/cancel',
  operationId: 'cancelBatch',
  summary: 'Cancel a batch',
  description: `The batch turns \`cancelling\`: no new line starts, lines in flight finish, then it is \`cancelled\` with output and error files of the lines that ran. A batch already ended is a 400. ${gone}`,
  tags,
  auth,
  params: idParams,
  responses: { 200: jsonResponse('The `batch` object, `cancelling`.') },
  errors: [400, 404],
});

const unknownBatch = (id: string) => notFound(`No batch with id '${id.slice(0, 64)}' in this organisation.`, 'batch_id');

/** The input file's requests, read and checked a line at a time as its parts stream (never the whole file at once). */
async function readBatchInput(deps: InferenceDeps, file: FileRecord, endpoint: CreateBatchRequest['endpoint']): Promise<BatchInputResult> {
  const reader = new BatchInputReader(endpoint);
  let number = 0;
  for await (const line of fileLines(deps.files.store, file)) if (!reader.push(line, ++number)) break;
  return reader.result();
}

/** The batch the request describes, with its lines, or failed with the input file's problems. */
async function newBatch(deps: InferenceDeps, caller: Caller, request: CreateBatchRequest): Promise<[NewBatch, { customId: string; body: Record<string, unknown> }[]]> {
  const orgId = caller.org.id;
  const file = await deps.files.store.get(orgId, request.input_file_id);
  if (!file) throw notFound(`No file with id '${request.input_file_id.slice(0, 64)}' in this organisation.`, 'input_file_id');
  if (file.purpose !== 'batch') throw invalidRequest(`The input file's purpose must be 'batch', not '${file.purpose}'.`, 'input_file_id');
  const now = new Date();
  const decoded = await readBatchInput(deps, file, request.endpoint);
  const base = {
    id: batchId(),
    orgId,
    keyId: caller.keyId,
    endpoint: request.endpoint,
    inputFileId: file.id,
    completionWindow: request.completion_window,
    metadata: request.metadata ?? null,
    createdAt: now,
    expiresAt: new Date(now.getTime() + WINDOW_MS),
  };
  if ('errors' in decoded) return [{ ...base, status: 'failed', errors: decoded.errors, total: 0, times: { failed_at: Math.floor(now.getTime() / 1000) } }, []];
  return [{ ...base, status: 'validating', errors: null, total: decoded.lines.length }, decoded.lines];
}

/** The caller's batch `id`, or a 404 naming it. */
async function ownBatch(deps: InferenceDeps, orgId: string, id: string): Promise<BatchRecord> {
  const batch = await deps.batches.get(orgId, id);
  // Anthropic Message Batches are not OpenAI batches: each API sees its own.
  if (!batch || !(batchEndpoints as readonly string[]).includes(batch.endpoint)) throw unknownBatch(id);
  return batch;
}

/** Asks the batch to stop: `cancelling` (the worker ends it), or as it is when it is cancelling already. */
async function cancel(deps: InferenceDeps, batch: BatchRecord): Promise<BatchRecord> {
  const moved = await deps.batches.transition(batch.id, ['validating', 'in_progress'], { status: 'cancelling', times: { cancelling_at: Math.floor(Date.now() / 1000) } });
  if (moved) return moved;
  const now = await ownBatch(deps, batch.orgId, batch.id);
  if (now.status === 'cancelling' || now.status === 'cancelled') return now;
  throw invalidRequest(`A batch with status '${now.status}' cannot be cancelled.`, null, 'batch_not_cancellable');
}

/** `/v1/batches`: create, list, retrieve and cancel the caller's organisation's batches; the worker runs them. */
export function registerBatches(routes: RouteRegistry<AppEnv>, deps: InferenceDeps): void {
  const idOf = (param: string | undefined) => validate(idParams, { batch_id: param }, issueToError).batch_id;

  routes.add(createBatchRoute, async (c) => {
    const request = validate(createBatchRequestSchema, await readJson(c, deps.maxBodyBytes, STORED_JSON_RULES), issueToError);
    const caller = c.get('caller');
    requireScope(caller, request.endpoint === '/v1/embeddings' ? 'inference:embeddings' : 'inference:chat');
    const [batch, lines] = await newBatch(deps, caller, request);
    const created = await createHoldingBatch(deps, caller, batch, lines);
    deps.batchWorker?.wake();
    return c.json(batchObject(created));
  });

  routes.add(listBatchesRoute, async (c) => {
    const query = validate(listQuery, c.req.query(), issueToError);
    const page = await deps.batches.list(c.get('caller').org.id, { ...query, endpoints: batchEndpoints });
    return c.json({ object: 'list', data: page.data.map(batchObject), first_id: page.data[0]?.id ?? null, last_id: page.data.at(-1)?.id ?? null, has_more: page.hasMore });
  });

  routes.add(getBatchRoute, async (c) => {
    const batch = await ownBatch(deps, c.get('caller').org.id, idOf(c.req.param('batch_id')));
    return c.json({ ...batchObject(batch), svc_metadata: await batchCost(deps.db.usage, batch) });
  });

  routes.add(cancelBatchRoute, async (c) => {
    const batch = await ownBatch(deps, c.get('caller').org.id, idOf(c.req.param('batch_id')));
    return c.json(batchObject(await cancel(deps, batch)));
  });
}
