import { type ChatMessage, RequestAbort, invalidRequest, toGatewayError, notFound } from '@svc/core';
import { bearer, defineRoute } from '@svc/openapi';
import type { ChatJsonResponse, ChatStreamResponse, Exchange } from '@svc/pipeline';
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
import type { Context } from 'hono';
import type { InferenceDeps } from '../deps.js';
import type { AppEnv } from '../env.js';
import { exchangeOf } from '../request-context.js';
import { sseResponse } from '../sse-response.js';
import { answerHeaders, chatErrors } from './answer-headers.js';
import { registerKeptResponses } from './kept-responses.js';
import { type McpResponseRun, mcpJsonResponse, mcpStreamResponse, usesMcpTools } from './responses-mcp.js';
import { mcpRounds } from '../mcp-tools/mcp-rounds.js';

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
    "With `store` (default true) the response is kept for the caller's organisation for `SVC_RESPONSES_TTL_DAYS` days: `GET`/`DELETE /v1/responses/{response_id}`, and `previous_response_id` continues its conversation with any model (its `instructions` are not carried over; an unknown, expired or other organisation's id is a 404 naming `previous_response_id`). A stream is kept when it completes (`response.completed` or `response.incomplete`); a failed or abandoned one is not. With `stream: true` the answer is the Responses event stream (`response.created` ... `response.completed`). Remote MCP tools (`tools: [{type: \"mcp\"}]`) are run by the gateway for every provider: `mcp_list_tools`, `mcp_call` and `mcp_approval_request` output items (docs/mcp.md).",
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

/** Keeps a finished response (with the turns its MCP tool rounds added); undefined when the request said `store: false`. */
type Keep = ((response: ResponseObject, toolTurns?: ChatMessage[]) => Promise<void>) | undefined;

/** What answering a Responses request needs: the chat gateway and the kept responses. */
export type ResponsesDeps = Pick<InferenceDeps, 'gateway' | 'responses' | 'logger'>;

/** A decoded Responses request with its conversation so far, and how its answer is kept. */
interface PreparedResponse {
  decoded: ReturnType<typeof decodeResponsesRequest>;
  request: ReturnType<typeof conversationOf>['request'];
  keep: Keep;
  /** The output of the kept response this request continues. */
  previousOutput: ResponseObject['output'] | undefined;
}

/** Decodes `body` (with the legacy headers `header` reads), joins the earlier turns, and decides whether the answer is kept. */
async function prepareResponse(deps: ResponsesDeps, orgId: string, body: unknown, header?: (name: string) => string | undefined): Promise<PreparedResponse> {
  const decoded = decodeResponsesRequest(body);
  if (header) applyLegacyHeaders(decoded.request, header);
  const previous = await previousResponse(deps, orgId, decoded.echo.previous_response_id);
  const { request, turns } = conversationOf(decoded, earlierTurns(previous, decoded.approvals.length > 0));
  const keep: Keep = decoded.echo.store
    ? (response, toolTurns = []) => keepResponse(deps, { orgId, turns: [...turns, ...toolTurns], inputItems: decoded.inputItems, response })
    : undefined;
  return { decoded, request, keep, previousOutput: (previous?.response as ResponseObject | undefined)?.output };
}

/** The `response` of a whole answer, kept unless the request said `store: false`. */
async function finishResponse(prepared: PreparedResponse, response: ChatJsonResponse): Promise<ResponseObject> {
  const { request, decoded, keep } = prepared;
  const body = encodeResponse(response.result, { id: responseId(), createdAt: Math.floor(Date.now() / 1000), model: response.metadata.model ?? response.result.model, request, echo: decoded.echo, svcMetadata: response.metadata });
  await keep?.(body);
  return body;
}

/**
 * A Responses request answered whole, never streamed (a batch line): the `response` object,
 * kept for the organisation unless it says `store: false`, as the interactive endpoint does.
 */
export async function answerResponse(deps: ResponsesDeps, body: unknown, exchange: (mode?: Exchange['mode']) => Exchange): Promise<ResponseObject> {
  const prepared = await prepareResponse(deps, exchange().caller.org.id, body);
  if (usesMcpTools(prepared.decoded)) throw invalidRequest('MCP tools are served on the interactive endpoint only, not in batches.', 'tools');
  prepared.request.stream = false;
  const response = await deps.gateway.chat(prepared.request, { ...exchange(prepared.request.svc?.intelligenceMode), conversationParam: 'input' });
  if (response.kind !== 'json') throw new Error('a non-stream responses request was answered as a stream');
  return finishResponse(prepared, response);
}

export function registerResponses(routes: RouteRegistry<AppEnv>, deps: InferenceDeps): void {
  routes.add(responsesRoute, async (c) => {
    const prepared = await prepareResponse(deps, c.get('caller').org.id, await readJson(c, deps.maxBodyBytes), (name) => readHeader(c, name));
    const { request, decoded, keep } = prepared;
    if (usesMcpTools(decoded)) return answerWithMcpTools(c, deps, prepared);
    const abort = new RequestAbort();
    const response = await deps.gateway.chat(request, exchangeOf(c, { bodyMode: request.svc?.intelligenceMode, bodyTimeoutMs: request.svc?.timeoutMs, abort, conversationParam: 'input' }));
    if (response.kind === 'json') {
      const body = await finishResponse(prepared, response);
      return c.body(JSON.stringify(body), 200, { 'content-type': 'application/json', ...response.headers });
    }
    const encoder = new ResponseStreamEncoder({ id: responseId(), createdAt: Math.floor(Date.now() / 1000), model: response.model, request, echo: decoded.echo });
    return sseResponse(c, events(encoder, response, keep), {
      headers: response.headers,
      keepAliveMs: deps.keepAliveMs ?? 15_000,
      keepAlive: encoder.keepAlive(),
      onCancel: () => abort.abort(),
    });
  });
  registerKeptResponses(routes, deps);
}

type KeptResponse = NonNullable<Awaited<ReturnType<ResponsesDeps['responses']['store']['get']>>>;

/** The kept response `previousId` (none without one). */
async function previousResponse(deps: ResponsesDeps, orgId: string, previousId: string | null): Promise<KeptResponse | undefined> {
  if (previousId === null) return undefined;
  const previous = await deps.responses.store.get(orgId, previousId);
  if (!previous) throw notFound(`Previous response with id '${previousId.slice(0, 64)}' not found.`, 'previous_response_id');
  return previous;
}

/**
 * The conversation of the kept response. A response that ended on approval requests ends with an
 * empty assistant turn: when this request answers them, the calls' own turn replaces it.
 */
function earlierTurns(previous: KeptResponse | undefined, answersApprovals: boolean): ChatMessage[] {
  if (!previous) return [];
  const last = previous.messages.at(-1);
  const empty = last?.role === 'assistant' && !last.content && !last.toolCalls?.length;
  return answersApprovals && empty ? previous.messages.slice(0, -1) : previous.messages;
}

/**
 * A request with `mcp` tools: the gateway runs the tool rounds (each a model request of its own,
 * ids `<request id>:mcp<round>` after the first) and answers whole or as a stream.
 */
async function answerWithMcpTools(c: Context<AppEnv>, deps: InferenceDeps, prepared: PreparedResponse): Promise<Response> {
  const { request, decoded } = prepared;
  const abort = new RequestAbort();
  const run: McpResponseRun = {
    decoded,
    request,
    keep: prepared.keep,
    previousOutput: prepared.previousOutput,
    gateway: deps.mcpGateway,
    ...mcpRounds(c, deps, { bodyMode: request.svc?.intelligenceMode, bodyTimeoutMs: request.svc?.timeoutMs, abort, conversationParam: 'input' }),
    meta: { id: responseId(), createdAt: Math.floor(Date.now() / 1000) },
  };
  if (!request.stream) {
    const { body, headers } = await mcpJsonResponse(run);
    return c.body(JSON.stringify(body), 200, { 'content-type': 'application/json', ...headers });
  }
  return sseResponse(c, mcpStreamResponse(run), { headers: {}, keepAliveMs: deps.keepAliveMs ?? 15_000, keepAlive: ': keep-alive\n\n', onCancel: () => abort.abort() });
}

interface Finished {
  orgId: string;
  /** The conversation before the answer (no instructions). */
  turns: ChatMessage[];
  inputItems: Record<string, unknown>[];
  response: ResponseObject;
}

/** Keeps the answer with its conversation; a failed write is logged, the caller still gets the answer. */
async function keepResponse(deps: ResponsesDeps, finished: Finished): Promise<void> {
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
