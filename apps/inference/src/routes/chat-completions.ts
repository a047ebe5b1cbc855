import { RequestAbort, chatCompletionId } from '@svc/core';
import { bearer, defineRoute } from '@svc/openapi';
import { ChatChunkEncoder, applyLegacyHeaders, chatChunks, chatRequestSchema, decodeChatRequest, encodeChatCompletion } from '@svc/protocol';
import { type RouteRegistry, plainAnswer, readHeader, readJson } from '@svc/http-kit';
import type { ChatJsonResponse } from '@svc/pipeline';
import type { InferenceDeps } from '../deps.js';
import type { AppEnv } from '../env.js';
import { exchangeOf } from '../request-context.js';
import { sseResponse } from '../sse-response.js';
import { answerHeaders, chatErrors } from './answer-headers.js';

/** Headers from the caller that providers may need (prompt caching betas). */
const forwarded = ['anthropic-beta'] as const;

export const chatCompletionsProbeRoute = defineRoute({
  method: 'head',
  path: '/v1/chat/completions',
  operationId: 'probeChatCompletions',
  summary: 'Check an API key',
  description: 'Answers 204 when the key is valid and holds `inference:chat`; nothing is generated. `GET` on this path answers 405.',
  tags: ['Chat'],
  auth: bearer('inference:chat'),
  responses: { 204: { description: 'The key is good.', headers: { 'x-svc-org-id': "The key's organisation." } } },
});

export const chatCompletionsRoute = defineRoute({
  method: 'post',
  path: '/v1/chat/completions',
  operationId: 'createChatCompletion',
  summary: 'Create a chat completion',
  description:
    'OpenAI-compatible chat completion, routed, cached and with fallback. With `stream: true` the answer is server-sent events (`chat.completion.chunk` objects, then `data: [DONE]`); `svc_metadata` rides on the JSON answer and on the final chunk.',
  tags: ['Chat'],
  auth: bearer('inference:chat'),
  body: { schema: chatRequestSchema, name: 'CreateChatCompletionRequest' },
  responses: {
    200: {
      description: 'The completion (`chat.completion`), or its chunks as server-sent events when `stream` is true.',
      content: { 'application/json': null, 'text/event-stream': null },
      headers: answerHeaders,
    },
  },
  errors: chatErrors,
});

/** The `chat.completion` object of a JSON answer (the route's, and a batch line's). */
export function chatCompletionBody(response: ChatJsonResponse, created = Math.floor(Date.now() / 1000)) {
  return encodeChatCompletion(response.result, {
    id: chatCompletionId(),
    created,
    model: response.metadata.model ?? response.result.model,
    svcMetadata: response.metadata,
  }).body;
}

export function registerChatCompletions(routes: RouteRegistry<AppEnv>, deps: InferenceDeps): void {
  // Auth / rate-limit probe: the key was checked by the route's auth; Hono dispatches HEAD as GET.
  routes.add(chatCompletionsProbeRoute, (c) => c.body(null, 204, { 'x-svc-org-id': c.get('caller').org.id }));

  routes.add(chatCompletionsRoute, async (c) => {
    const request = decodeChatRequest(await readJson(c, deps.maxBodyBytes));
    applyLegacyHeaders(request, (name) => readHeader(c, name));
    const abort = new RequestAbort();
    const response = await deps.gateway.chat(request, exchangeOf(c, { bodyMode: request.svc?.intelligenceMode, bodyTimeoutMs: request.svc?.timeoutMs, forward: forwarded, abort }));
    const created = Math.floor(Date.now() / 1000);
    if (response.kind === 'json') {
      // The answer's record is its own (made per response): the content type goes into it, not into a copy of its ~18 headers.
      response.headers['content-type'] = 'application/json';
      return plainAnswer(c, JSON.stringify(chatCompletionBody(response, created)), 200, response.headers);
    }
    const encoder = new ChatChunkEncoder({ id: chatCompletionId(), created, model: response.model, includeUsage: request.includeUsage, n: request.n });
    return sseResponse(c, chatChunks(encoder, response), {
      headers: response.headers,
      keepAliveMs: deps.keepAliveMs ?? 15_000,
      keepAlive: encoder.keepAlive(),
      onCancel: () => abort.abort(),
    });
  });
}
