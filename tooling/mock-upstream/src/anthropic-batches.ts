import { randomBytes } from 'node:crypto';
import { type JsonAnswer, jsonAnswer } from './answer.js';
import { type AnswerLine, type BatchCall, type BatchRequest, BatchRun, type LineAnswer } from './batch-run.js';
import { invalidRequest } from './faults.js';
import { asArray, asRecord, asString } from './json.js';

const BATCH_PATH = /^\/v1\/messages\/batches\/([^/]+)(\/cancel|\/results)?$/;
const iso = (seconds: number | undefined) => (seconds === undefined ? null : new Date(seconds * 1000).toISOString());
const json = (status: number, body: unknown) => jsonAnswer(status, JSON.stringify(body));

/** An errored request's `result`: the interactive route's error, with its request id. */
function errored(answer: LineAnswer) {
  const error = asRecord(asRecord(answer.body)?.['error']) ?? { type: 'api_error', message: 'The request failed.' };
  return { type: 'errored', error: { type: 'error', error, request_id: answer.requestId } };
}

/**
 * Anthropic's Message Batches (`POST /v1/messages/batches`, `GET /v1/messages/batches` (list),
 * `GET .../{id}`, `POST .../{id}/cancel`, `GET .../{id}/results`), in memory, in the shapes of docs.anthropic.com's Message Batches API
 * reference: the `message_batch` object and results JSONL of `{custom_id, result: {type:
 * succeeded|errored|canceled|expired, ...}}`. Each request is answered by the mock's own
 * `/v1/messages` as the batch is retrieved.
 */
export class AnthropicBatches {
  private readonly batches = new Map<string, BatchRun>();

  constructor(
    private readonly polls: () => number,
    private readonly answerLine: AnswerLine,
  ) {}

  static handles(path: string): boolean {
    return path === '/v1/messages/batches' || BATCH_PATH.test(path);
  }

  handle({ method, path, raw, owner, query }: BatchCall, origin: string): JsonAnswer {
    if (method === 'POST' && path === '/v1/messages/batches') return this.create(raw, owner, origin);
    if (method === 'GET' && path === '/v1/messages/batches') return this.list(owner, query ?? new URLSearchParams(), origin);
    const match = BATCH_PATH.exec(path);
    const found = match ? this.batches.get(match[1] ?? '') : undefined;
    const run = found?.owner === owner ? found : undefined;
    if (!match || !run) return json(404, { type: 'error', error: { type: 'not_found_error', message: `No Message Batch '${match?.[1] ?? path}'` } });
    if (method === 'POST' && match[2] === '/cancel') run.cancel();
    else if (method === 'GET' && match[2] === '/results') return this.results(run);
    else if (method === 'GET') run.advance(this.polls(), this.answerLine);
    return json(200, this.object(run, origin));
  }

  private create(raw: Buffer, owner: string, origin: string): JsonAnswer {
    let body: unknown;
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      body = undefined;
    }
    const requests: BatchRequest[] = [];
    for (const request of asArray(asRecord(body)?.['requests']) ?? []) {
      const custom = asString(asRecord(request)?.['custom_id']);
      const params = asRecord(asRecord(request)?.['params']);
      if (!custom || !params) return invalidRequest('anthropic', 'requests: each needs custom_id and params', 'msgbatches');
      requests.push({ customId: custom, url: '/v1/messages', body: params });
    }
    if (requests.length === 0) return invalidRequest('anthropic', 'requests: at least one request is required', 'msgbatches');
    const run = new BatchRun(`msgbatch_${randomBytes(12).toString('hex')}`, requests, owner);
    this.batches.set(run.id, run);
    return json(200, this.object(run, origin));
  }

  /**
   * `GET /v1/messages/batches`: the key's Message Batches, newest first, `limit` 1-1000 (20) after
   * the batch `after_id` (older) or before `before_id` (newer), with `first_id`, `last_id` and
   * `has_more` (more in the direction read); an unknown cursor reads an empty page.
   */
  private list(owner: string, query: URLSearchParams, origin: string): JsonAnswer {
    const own = [...this.batches.values()].filter((run) => run.owner === owner).reverse();
    const limit = Number(query.get('limit') ?? 20);
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000) return invalidRequest('anthropic', 'limit: must be an integer from 1 to 1000', 'limit');
    const after = query.get('after_id');
    const before = query.get('before_id');
    const at = (id: string) => own.findIndex((run) => run.id === id);
    let [start, end] = [0, Math.min(limit, own.length)];
    if (after !== null) [start, end] = at(after) < 0 ? [0, 0] : [at(after) + 1, Math.min(at(after) + 1 + limit, own.length)];
    else if (before !== null) [start, end] = at(before) < 0 ? [0, 0] : [Math.max(0, at(before) - limit), at(before)];
    const page = own.slice(start, end).map((run) => this.object(run, origin));
    const hasMore = before !== null && after === null ? start > 0 : end < own.length && end > start;
    return json(200, { data: page, has_more: hasMore, first_id: page[0]?.id ?? null, last_id: page.at(-1)?.id ?? null });
  }

  private results(run: BatchRun): JsonAnswer {
    if (run.state !== 'ended') return invalidRequest('anthropic', `Message Batch ${run.id} has not yet ended`, 'results');
    const lines = run.requests.map((request, index) => {
      const answer = run.answers[index];
      const result = !answer ? { type: run.cancelled ? 'canceled' : 'expired' } : answer.status < 300 ? { type: 'succeeded', message: answer.body } : errored(answer);
      return `${JSON.stringify({ custom_id: request.customId, result })}\n`;
    });
    return jsonAnswer(200, lines.join(''), { 'content-type': 'application/binary' });
  }

  private object(run: BatchRun, origin: string) {
    const { ran, ok } = run.counts();
    const ended = run.state === 'ended';
    return {
      id: run.id,
      type: 'message_batch',
      processing_status: ended ? 'ended' : run.state === 'cancelling' ? 'canceling' : 'in_progress',
      request_counts: { processing: ended ? 0 : run.requests.length - ran, succeeded: ok, errored: ran - ok, canceled: ended && run.cancelled ? run.requests.length - ran : 0, expired: 0 },
      ended_at: iso(run.endedAt),
      created_at: iso(run.createdAt),
      expires_at: iso(run.createdAt + 86_400),
      archived_at: null,
      cancel_initiated_at: iso(run.cancelledAt),
      results_url: ended ? `${origin}/v1/messages/batches/${run.id}/results` : null,
    };
  }
}
