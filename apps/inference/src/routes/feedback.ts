import { type Caller, GatewayError, invalidRequest, notFound } from '@svc/core';
import type { FeedbackRecord, FeedbackRepository } from '@svc/db';
import { type RouteRegistry, STORED_JSON_RULES, readJson, validate } from '@svc/http-kit';
import { bearer, defineRoute, jsonResponse } from '@svc/openapi';
import { issueToError } from '@svc/protocol';
import * as v from 'valibot';
import type { AppEnv } from '../env.js';
import { reportMode } from '../report-mode.js';

/** What `/v1/feedback` needs: the feedback table and the router's learner (taught each request's first score). */
export interface FeedbackDeps {
  store: Pick<FeedbackRepository, 'record'>;
  /** The router's learner (`RouterFeedback.recordFeedback`: `@svc/router`'s `FeedbackScore`). */
  learner: { recordFeedback(feedback: { orgId: string; taskKind: string; model: string; score: number }): void };
  /** Writes the ledger rows still queued (`LearnSink.flush`): feedback sent right after its answer finds its row. */
  flushLedger(): Promise<void>;
}

const notAField = 'is not a field of a feedback request';

/** `POST /v1/feedback`: unknown fields are refused, naming them. */
const feedbackSchema = v.strictObject(
  {
    request_id: v.pipe(v.string('must be a string'), v.minLength(1, 'must not be empty'), v.maxLength(200, 'must be at most 200 characters')),
    score: v.optional(v.pipe(v.number('must be a number'), v.minValue(0, 'must be between 0 and 1'), v.maxValue(1, 'must be between 0 and 1'))),
    thumbs: v.optional(v.picklist(['up', 'down'], "must be 'up' or 'down'")),
    comment: v.optional(v.pipe(v.string('must be a string'), v.maxLength(4000, 'must be at most 4000 characters'))),
  },
  notAField,
);

type FeedbackRequest = v.InferOutput<typeof feedbackSchema>;

/** The score of a request: `score` as given, thumbs up 1, down 0; exactly one of them. */
function scoreOf(body: FeedbackRequest): number {
  if (body.score !== undefined && body.thumbs !== undefined) throw invalidRequest("Send either 'score' or 'thumbs', not both.", 'thumbs');
  if (body.thumbs !== undefined) return body.thumbs === 'up' ? 1 : 0;
  if (body.score === undefined) throw invalidRequest("Missing required parameter: 'score' (a number in [0, 1]) or 'thumbs' ('up' or 'down').", 'score');
  return body.score;
}

function feedbackWire(record: FeedbackRecord) {
  return {
    object: 'feedback',
    request_id: record.requestId,
    score: record.score,
    thumbs: record.thumbs,
    comment: record.comment,
    model: record.model,
    task_kind: record.taskFamily,
    created_at: Math.floor(record.createdAt.getTime() / 1000),
  };
}

const unknownRequest = (id: string) => notFound(`No request with id '${id.slice(0, 64)}' in this organisation's ledger.`, 'request_id');

const feedbackConflict = (id: string) =>
  new GatewayError({ status: 409, type: 'invalid_request_error', code: 'conflict', param: 'request_id', message: `Request '${id.slice(0, 64)}' already has other feedback; a request's feedback is recorded once.` });

export const postFeedbackRoute = defineRoute({
  method: 'post',
  path: '/v1/feedback',
  operationId: 'createFeedback',
  summary: "Record a request's outcome",
  description:
    "The caller's judgement of one answer: `request_id` (the answer's `x-svc-request-id`), `score` in [0, 1] or `thumbs` (`up` = 1, `down` = 0), an optional `comment`. Stored beside the request's ledger row and taught to the router's per-task learner. Once per request: the same feedback again answers 200 with what is stored, other feedback 409 `conflict`. A request of another organisation is 404 like an unknown one.",
  tags: ['Feedback'],
  auth: bearer('feedback:write'),
  body: { schema: feedbackSchema, name: 'CreateFeedbackRequest' },
  responses: { 201: jsonResponse('The feedback recorded (`object: "feedback"`).'), 200: jsonResponse('The same feedback was recorded before: what is stored.') },
  errors: [400, 404, 409, 413],
});

async function recordFeedback(deps: FeedbackDeps, caller: Caller, body: FeedbackRequest) {
  const score = scoreOf(body);
  const record = () => deps.store.record({ requestId: body.request_id, orgId: caller.org.id, keyId: caller.keyId, score, thumbs: body.thumbs ?? null, comment: body.comment ?? null });
  let result = await record();
  if (result.status === 'not_found') {
    // The answer may be so recent that its ledger row is still queued: write the queue, look once more.
    await deps.flushLedger();
    result = await record();
  }
  if (result.status === 'not_found') throw unknownRequest(body.request_id);
  if (result.status === 'conflict') throw feedbackConflict(body.request_id);
  const { feedback } = result;
  // Only the first score teaches the learner (a repeat is the same request, not new evidence).
  if (result.status === 'created' && feedback.taskFamily) deps.learner.recordFeedback({ orgId: caller.org.id, taskKind: feedback.taskFamily, model: feedback.model, score });
  return result;
}

export function registerFeedback(routes: RouteRegistry<AppEnv>, deps: { requestFeedback: FeedbackDeps; maxBodyBytes: number }): void {
  routes.add(postFeedbackRoute, reportMode(), async (c) => {
    const body = validate(feedbackSchema, await readJson(c, deps.maxBodyBytes, STORED_JSON_RULES), issueToError);
    const result = await recordFeedback(deps.requestFeedback, c.get('caller'), body);
    return c.json(feedbackWire(result.feedback), result.status === 'created' ? 201 : 200);
  });
}
