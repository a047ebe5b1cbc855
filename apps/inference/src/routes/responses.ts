import { toGatewayError } from '@svc/core';
import { bearer, defineRoute } from '@svc/openapi';
import type { ChatStreamResponse } from '@svc/pipeline';
import { ResponseStreamEncoder, applyLegacyHeaders, decodeResponsesRequest, encodeResponse, responseId, responsesRequestSchema } from '@svc/protocol';
import { type RouteRegistry, readHeader, readJson } from '@svc/http-kit';
import type { InferenceDeps } from '../deps.js';
import type { AppEnv } from '../env.js';
import { exchangeOf } from '../request-context.js';
import { sseResponse } from '../sse-response.js';
import { answerHeaders, chatErrors } from './answer-headers.js';

/**
 * `POST /v1/responses`, the OpenAI Responses API, translated to the chat pipeline and back
 * (scope `inference:chat`). Stateless: `store` is ignored and `previous_response_id` is a 400.
 * Errors before the first byte use the app's error shape; after it, `response.failed` + `error`.
 */
export const responsesRoute = defineRoute({
  method: 'post',
  path: '/v1/responses',
  operationId: 'createResponse',
  summary: 'Create a model response (OpenAI Responses API)',
  description: 'Stateless: `store` is ignored and `previous_response_id` is a 400. With `stream: true` the answer is the Responses event stream (`response.created` ... `response.completed`).',
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

export function registerResponses(routes: RouteRegistry<AppEnv>, deps: InferenceDeps): void {
  routes.add(responsesRoute, async (c) => {
    const { request, echo } = decodeResponsesRequest(await readJson(c, deps.maxBodyBytes));
    applyLegacyHeaders(request, (name) => readHeader(c, name));
    const abort = new AbortController();
    const response = await deps.gateway.chat(request, exchangeOf(c, { bodyMode: request.svc?.intelligenceMode, abort }));
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
