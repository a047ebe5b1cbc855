import { requireScope } from '@svc/auth';
import { toGatewayError } from '@svc/core';
import type { ChatStreamResponse } from '@svc/pipeline';
import { ResponseStreamEncoder, applyLegacyHeaders, decodeResponsesRequest, encodeResponse, responseId } from '@svc/protocol';
import type { Hono } from 'hono';
import type { InferenceDeps } from '../deps.js';
import type { AppEnv } from '../env.js';
import { onClientGone, readHeader } from '../node-request.js';
import { readJson } from '../read-body.js';
import { sseResponse } from '../sse-response.js';

/**
 * `POST /v1/responses`, the OpenAI Responses API, translated to the chat pipeline and back
 * (scope `inference:chat`). Stateless: `store` is ignored and `previous_response_id` is a 400.
 * Errors before the first byte use the app's error shape; after it, `response.failed` + `error`.
 */
export function registerResponses(app: Hono<AppEnv>, deps: InferenceDeps): void {
  app.post('/v1/responses', async (c) => {
    const caller = c.get('caller');
    requireScope(caller, 'inference:chat');
    const { request, echo } = decodeResponsesRequest(await readJson(c, deps.maxBodyBytes));
    applyLegacyHeaders(request, (name) => readHeader(c, name));
    const abort = new AbortController();
    onClientGone(c, () => abort.abort());
    const response = await deps.gateway.chat(request, {
      caller,
      requestId: c.get('requestId'),
      startedAt: c.get('startedAt'),
      signal: abort.signal,
      intelligenceModeHeader: readHeader(c, 'x-intelligence-mode') ?? null,
    });
    const createdAt = Math.floor(Date.now() / 1000);
    if (response.kind === 'json') {
      const body = encodeResponse(response.result, {
        id: responseId(),
        createdAt,
        model: response.metadata.model ?? response.result.model,
        request,
        echo,
        svcMetadata: response.metadata,
      });
      return c.body(JSON.stringify(body), 200, { 'content-type': 'application/json', ...response.headers });
    }
    const encoder = new ResponseStreamEncoder({ id: responseId(), createdAt, model: response.model, request, echo });
    return sseResponse(events(encoder, response), {
      headers: response.headers,
      keepAliveMs: deps.keepAliveMs ?? 15_000,
      keepAlive: encoder.keepAlive(),
      onCancel: () => abort.abort(),
    });
  });
}

/** `response.created` first, the items as they come, then `response.completed`, or `response.failed`. */
async function* events(encoder: ResponseStreamEncoder, response: ChatStreamResponse): AsyncGenerator<string> {
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
  yield encoder.end(response.metadata());
}
