import { type ChatMessage, toGatewayError, notFound } from '@svc/core';
import { bearer, defineRoute } from '@svc/openapi';
import type { ChatStreamResponse } from '@svc/pipeline';
import {
  type ResponseObject,
  ResponseStreamEncoder,
  answerTurn,
  applyLegacyHeaders,
  conversationOf,
  decodeResponsesRequest,
  encodeResponse,
  responseId,
  responsesRequestSchema,
} from '@svc/protocol';
import { type RouteRegistry, readHeader, readJson } from '@svc/http-kit';
import type { InferenceDeps } from '../deps.js';
import type { AppEnv } from '../env.js';
import { exchangeOf } from '../request-context.js';
import { sseResponse } from '../sse-response.js';
import { answerHeaders, chatErrors } from './answer-headers.js';
import { registerKeptResponses } from './kept-responses.js';

const DAY_MS = 86_400_000;

/**
 * `POST /v1/responses`, the OpenAI Responses API, translated to the chat pipeline and back
 * (scope `inference:chat`). With `store` (default true) the answer is kept for the organisation
 * (`GET`/`DELETE /v1/responses/{id}`, `previous_response_id`) for SVC_RESPONSES_TTL_DAYS.
 * Errors before the first byte use the app's error shape; after it, `response.failed` + `error`.
 */
export const responsesRoute = defineRoute({
  method: 'post',
  path: '/v1/responses',
  operationId: 'createResponse',
  summary: 'Create a model response (OpenAI Responses API)',
  description:
    "With `store` (default true) the response is kept for the caller's organisation for `SVC_RESPONSES_TTL_DAYS` days: `GET`/`DELETE /v1/responses/{response_id}`, and `previous_response_id` continues its conversation with any model (its `instructions` are not carried over; an unknown, expired or other organisation's id is a 404 naming `previous_response_id`). A stream is kept when it completes (`response.completed` or `response.incomplete`); a failed or abandoned one is not. With `stream: true` the answer is the Responses event stream (`response.created` ... `response.completed`).",
  tags: ['Responses'],
  auth: bearer('inference:chat'),
  body: { schema: responsesRequestSchema, name: 'CreateResponse' },
  responses: {
    200: {
      description: 'The `response`, or its events as server-sent events when `stream` is true.',
      content: { 'application/json': null, 'text/event-stream': null },
      headers: answerHeaders,
    },
  },
  errors: chatErrors,
});

/** Keeps a finished response; undefined when the request said `store: false`. */
type Keep = ((response: ResponseObject) => Promise<void>) | undefined;

export function registerResponses(routes: RouteRegistry<AppEnv>, deps: InferenceDeps): void {
  routes.add(responsesRoute, async (c) => {
    const decoded = decodeResponsesRequest(await readJson(c, deps.maxBodyBytes));
    applyLegacyHeaders(decoded.request, (name) => readHeader(c, name));
    const orgId = c.get('caller').org.id;
    const { request, turns } = conversationOf(decoded, await earlierTurns(deps, orgId, decoded.echo.previous_response_id));
    const keep: Keep = decoded.echo.store ? (response) => keepResponse(deps, { orgId, turns, inputItems: decoded.inputItems, response }) : undefined;
    const abort = new AbortController();
    const response = await deps.gateway.chat(request, exchangeOf(c, { bodyMode: request.svc?.intelligenceMode, bodyTimeoutMs: request.svc?.timeoutMs, abort }));
    const createdAt = Math.floor(Date.now() / 1000);
    const { echo } = decoded;
    if (response.kind === 'json') {
      const body = encodeResponse(response.result, { id: responseId(), createdAt, model: response.metadata.model ?? response.result.model, request, echo, svcMetadata: response.metadata });
      await keep?.(body);
      return c.body(JSON.stringify(body), 200, { 'content-type': 'application/json', ...response.headers });
    }
    const encoder = new ResponseStreamEncoder({ id: responseId(), createdAt, model: response.model, request, echo });
    return sseResponse(events(encoder, response, keep), {
      headers: response.headers,
      keepAliveMs: deps.keepAliveMs ?? 15_000,
      keepAlive: encoder.keepAlive(),
      onCancel: () => abort.abort(),
    });
  });
  registerKeptResponses(routes, deps);
}

/** The conversation of the kept response `previousId` (none without one). */
async function earlierTurns(deps: InferenceDeps, orgId: string, previousId: string | null): Promise<ChatMessage[]> {
  if (previousId === null) return [];
  const previous = await deps.responses.store.get(orgId, previousId);
  if (!previous) throw notFound(`Previous response with id '${previousId.slice(0, 64)}' not found.`, 'previous_response_id');
  return previous.messages;
}

interface Finished {
  orgId: string;
  /** The conversation before the answer (no instructions). */
  turns: ChatMessage[];
  inputItems: Record<string, unknown>[];
  response: ResponseObject;
}

/** Keeps the answer with its conversation; a failed write is logged, the caller still gets the answer. */
async function keepResponse(deps: InferenceDeps, finished: Finished): Promise<void> {
  const { response } = finished;
  const createdAt = new Date();
  try {
    await deps.responses.store.save({
      id: response.id,
      orgId: finished.orgId,
      model: response.model,
      status: response.status,
      response,
      inputItems: finished.inputItems,
      messages: [...finished.turns, answerTurn(response.output)],
      createdAt,
      expiresAt: new Date(createdAt.getTime() + deps.responses.ttlDays * DAY_MS),
    });
  } catch (error) {
    deps.logger.warn({ err: { name: (error as Error)?.name, code: (error as { code?: unknown })?.code } }, 'responses: the response could not be kept');
  }
}

/** `response.created` first, the items as they come, then `response.completed` once kept, or `response.failed` (not kept). */
async function* events(encoder: ResponseStreamEncoder, response: ChatStreamResponse, keep: Keep): AsyncGenerator<string> {
  yield encoder.start();
  try {
    for await (const event of response.events) {
      const frame = encoder.event(event);
      if (frame) yield frame;
    }
  } catch (error) {
    yield encoder.error(toGatewayError(error));
    return;
  }
  const end = encoder.end(response.metadata());
  const final = encoder.finalResponse;
  // Kept before the client reads `response.completed`, so a retrieve right after it finds it.
  if (final) await keep?.(final);
  yield end;
}
