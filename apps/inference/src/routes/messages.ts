import { type ChatRequest, RequestAbort, randomId, toGatewayError } from '@svc/core';
import type { Context } from 'hono';
import { bearer, defineRoute } from '@svc/openapi';
import type { ChatStreamResponse } from '@svc/pipeline';
import { MessagesStreamEncoder, type McpServerSpec, applyLegacyHeaders, decodeMessagesRequest, encodeMessagesResponse, mcpServersOf, messagesRequestSchema } from '@svc/protocol';
import { type RouteRegistry, plainAnswer, readHeader, readJson } from '@svc/http-kit';
import type { InferenceDeps } from '../deps.js';
import type { AppEnv } from '../env.js';
import { exchangeOf } from '../request-context.js';
import { sseResponse } from '../sse-response.js';
import { answerHeaders, chatErrors } from './answer-headers.js';
import { type McpMessagesRun, mcpMessagesJson, mcpMessagesStream } from './messages-mcp.js';
import { mcpRounds } from '../mcp-tools/mcp-rounds.js';

/** Headers from the caller that providers may need (prompt caching betas). */
const forwarded = ['anthropic-beta'] as const;

/** Client session headers, kept in `metadata.session_id` for audit (Claude Code sends the first). */
const sessionHeaders = ['x-claude-code-session-id', 'x-session-id'] as const;

export const messagesRoute = defineRoute({
  method: 'post',
  path: '/v1/messages',
  operationId: 'createMessage',
  summary: 'Create a message (Anthropic Messages API)',
  description:
    "Anthropic-compatible: Anthropic SDKs use the gateway's base URL without `/v1`; the key may come as `x-api-key` or `Authorization: Bearer`. With `stream: true` the answer is Anthropic's event stream. Every error, authentication included, uses Anthropic's envelope. `mcp_servers` (MCP connector) are run by the gateway for every provider: `mcp_tool_use` and `mcp_tool_result` blocks (docs/mcp.md).",
  tags: ['Messages'],
  auth: bearer('inference:chat'),
  body: { schema: messagesRequestSchema, name: 'CreateMessageRequest' },
  responses: {
    200: {
      description: 'The `message`, or its events (`message_start` ... `message_stop`) as server-sent events when `stream` is true.',
      content: { 'application/json': null, 'text/event-stream': null },
      headers: { ...answerHeaders, 'request-id': 'The request id, where Anthropic SDKs read it.' },
    },
  },
  errors: chatErrors,
  errorFormat: 'anthropic',
});

/**
 * `POST /v1/messages`, the Anthropic Messages API (Anthropic SDKs use the gateway's base URL
 * without `/v1`). The key may come as `x-api-key` (0.x SDKs) or `Authorization: Bearer` (1.x);
 * `errorFormat: 'anthropic'` puts every failure on it, authentication included, in Anthropic's
 * envelope (see `anthropic-errors.ts`).
 */
export function registerMessages(routes: RouteRegistry<AppEnv>, deps: InferenceDeps): void {
  routes.add(messagesRoute, async (c) => {
    const body = await readJson(c, deps.maxBodyBytes);
    const request = decodeMessagesRequest(body);
    applyLegacyHeaders(request, (name) => readHeader(c, name));
    for (const name of sessionHeaders) {
      const session = readHeader(c, name);
      if (session) {
        request.metadata = { ...request.metadata, session_id: session };
        break;
      }
    }
    const abort = new RequestAbort();
    const requestId = c.get('requestId');
    const servers = mcpServersOf(body);
    if (servers.length > 0) return answerWithMcpServers(c, deps, { request, servers, abort });
    const response = await deps.gateway.chat(request, exchangeOf(c, { bodyMode: request.svc?.intelligenceMode, bodyTimeoutMs: request.svc?.timeoutMs, forward: forwarded, abort }));
    const id = `msg_${randomId(24)}`;
    if (response.kind === 'json') {
      const body = encodeMessagesResponse(response.result, {
        id,
        model: response.metadata.model ?? response.result.model,
        svcMetadata: response.metadata,
      });
      // The answer's record is its own (made per response): our two headers go into it where it has none, not into a copy of it.
      response.headers['content-type'] ??= 'application/json';
      response.headers['request-id'] ??= requestId;
      return plainAnswer(c, JSON.stringify(body), 200, response.headers);
    }
    const encoder = new MessagesStreamEncoder({ id, model: response.model });
    return sseResponse(c, events(encoder, response, requestId), {
      headers: { 'request-id': requestId, ...response.headers },
      keepAliveMs: deps.keepAliveMs ?? 15_000,
      keepAlive: encoder.keepAlive(),
      onCancel: () => abort.abort(),
    });
  });
}

/** `message_start`, the blocks as they come, then `message_delta` + `message_stop`, or an `error` event. */
async function* events(encoder: MessagesStreamEncoder, response: ChatStreamResponse, requestId: string): AsyncGenerator<string> {
  yield encoder.start();
  try {
    for await (const event of response.events) {
      const frame = encoder.event(event);
      if (frame) yield frame;
    }
  } catch (error) {
    yield encoder.error(toGatewayError(error), requestId);
    return;
  }
  yield encoder.end(response.metadata());
}

/**
 * A request with `mcp_servers`: the gateway runs the tool rounds (each a model request of its own,
 * ids `<request id>:mcp<round>` after the first) and answers whole or as a stream.
 */
async function answerWithMcpServers(c: Context<AppEnv>, deps: InferenceDeps, given: { request: ChatRequest; servers: McpServerSpec[]; abort: RequestAbort }): Promise<Response> {
  const { request, abort } = given;
  const requestId = c.get('requestId');
  const run: McpMessagesRun = {
    request,
    servers: given.servers,
    gateway: deps.mcpGateway,
    ...mcpRounds(c, deps, { bodyMode: request.svc?.intelligenceMode, bodyTimeoutMs: request.svc?.timeoutMs, forward: forwarded, abort }),
    id: `msg_${randomId(24)}`,
    requestId,
  };
  if (!request.stream) {
    const { body, headers } = await mcpMessagesJson(run);
    return c.body(JSON.stringify(body), 200, { 'content-type': 'application/json', 'request-id': requestId, ...headers });
  }
  return sseResponse(c, mcpMessagesStream(run), { headers: { 'request-id': requestId }, keepAliveMs: deps.keepAliveMs ?? 15_000, keepAlive: 'event: ping\ndata: {"type":"ping"}\n\n', onCancel: () => abort.abort() });
}
