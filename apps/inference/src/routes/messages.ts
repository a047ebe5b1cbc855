import { requireScope } from '@svc/auth';
import { randomId, toGatewayError } from '@svc/core';
import type { ChatStreamResponse } from '@svc/pipeline';
import {
  MessagesStreamEncoder,
  applyLegacyHeaders,
  decodeMessagesRequest,
  encodeMessagesError,
  encodeMessagesResponse,
} from '@svc/protocol';
import type { Hono, MiddlewareHandler } from 'hono';
import { authenticate } from '../authenticate.js';
import type { InferenceDeps } from '../deps.js';
import type { AppEnv } from '../env.js';
import { onClientGone, readHeader } from '../node-request.js';
import { readJson } from '../read-body.js';
import { sseResponse } from '../sse-response.js';

/** Headers from the caller that providers may need (prompt caching betas). */
const forwarded = ['anthropic-beta'] as const;

/** Client session headers, kept in `metadata.session_id` for audit (Claude Code sends the first). */
const sessionHeaders = ['x-claude-code-session-id', 'x-session-id'] as const;

/**
 * `POST /v1/messages`, the Anthropic Messages API (Anthropic SDKs use the gateway's base URL
 * without `/v1`). The key may come as `x-api-key` (0.x SDKs) or `Authorization: Bearer` (1.x).
 *
 * The route authenticates itself, behind {@link anthropicErrors}, so that every failure on it,
 * authentication included, uses the Anthropic error envelope: register it before the app's
 * `/v1/*` authentication middleware (a matched handler ends the chain, so auth runs once).
 */
export function registerMessages(app: Hono<AppEnv>, deps: InferenceDeps): void {
  app.post('/v1/messages', anthropicErrors(), authenticate(deps), async (c) => {
    const caller = c.get('caller');
    requireScope(caller, 'inference:chat');
    const request = decodeMessagesRequest(await readJson(c, deps.maxBodyBytes));
    applyLegacyHeaders(request, (name) => readHeader(c, name));
    for (const name of sessionHeaders) {
      const session = readHeader(c, name);
      if (session) {
        request.metadata = { ...request.metadata, session_id: session };
        break;
      }
    }
    const abort = new AbortController();
    onClientGone(c, () => abort.abort());
    let forwardHeaders: Record<string, string> | undefined;
    for (const name of forwarded) {
      const value = readHeader(c, name);
      if (value) forwardHeaders = { ...forwardHeaders, [name]: value };
    }
    const requestId = c.get('requestId');
    const response = await deps.gateway.chat(request, {
      caller,
      requestId,
      startedAt: c.get('startedAt'),
      signal: abort.signal,
      intelligenceModeHeader: readHeader(c, 'x-intelligence-mode') ?? null,
      ...(forwardHeaders ? { forwardHeaders } : {}),
    });
    const id = `msg_${randomId(24)}`;
    if (response.kind === 'json') {
      const body = encodeMessagesResponse(response.result, {
        id,
        model: response.metadata.model ?? response.result.model,
        svcMetadata: response.metadata,
      });
      return c.body(JSON.stringify(body), 200, { 'content-type': 'application/json', 'request-id': requestId, ...response.headers });
    }
    const encoder = new MessagesStreamEncoder({ id, model: response.model });
    return sseResponse(events(encoder, response, requestId), {
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
 * Re-encodes the app's error response (already built by `onError`, with `x-error-id` and
 * `retry-after`) in the Anthropic envelope `{type: "error", error: {...}, request_id}`; the
 * status stays the spec's. The SDKs read `request-id` as the request id.
 */
function anthropicErrors(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    if (c.error === undefined) return;
    const error = toGatewayError(c.error);
    const requestId = c.get('requestId') as string | undefined;
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (requestId) headers['request-id'] = requestId;
    c.res = new Response(JSON.stringify(encodeMessagesError(error, requestId)), { status: error.status, headers });
  };
}
