import { randomId } from '@svc/core';
import { bearer, defineRoute, jsonResponse } from '@svc/openapi';
import { completionsRequestSchema, decodeCompletionsRequest, encodeCompletion } from '@svc/protocol';
import { type RouteRegistry, plainAnswer, readJson } from '@svc/http-kit';
import type { InferenceDeps } from '../deps.js';
import type { AppEnv } from '../env.js';
import { exchangeOf } from '../request-context.js';
import { answerHeaders, chatErrors } from './answer-headers.js';

export const completionsRoute = defineRoute({
  method: 'post',
  path: '/v1/completions',
  operationId: 'createCompletion',
  summary: 'Create a (legacy) text completion',
  description: 'The prompt goes through the chat pipeline as one user message and comes back as `text_completion`. JSON only: `stream: true` is a 400.',
  tags: ['Completions'],
  auth: bearer('inference:chat'),
  body: { schema: completionsRequestSchema, name: 'CreateCompletionRequest' },
  responses: { 200: jsonResponse('The completion (`text_completion`).', answerHeaders) },
  errors: chatErrors,
});

/** Legacy `POST /v1/completions`: one user message through the chat pipeline, answered as `text_completion`. */
export function registerCompletions(routes: RouteRegistry<AppEnv>, deps: InferenceDeps): void {
  routes.add(completionsRoute, async (c) => {
    const { request, prompt, echo, notApplied } = decodeCompletionsRequest(await readJson(c, deps.maxBodyBytes));
    const response = await deps.gateway.chat(request, exchangeOf(c, { bodyMode: request.svc?.intelligenceMode, bodyTimeoutMs: request.svc?.timeoutMs, conversationParam: 'prompt' }));
    // The decoder refuses `stream: true`, so the pipeline answers JSON.
    if (response.kind !== 'json') throw new Error('The chat pipeline streamed a non-stream request.');
    const body = encodeCompletion(response.result, {
      id: `cmpl-${randomId(24)}`,
      created: Math.floor(Date.now() / 1000),
      model: response.metadata.model ?? response.result.model,
      ...(echo ? { echoPrompt: prompt } : {}),
      n: request.n,
      svcMetadata: response.metadata,
      notApplied,
    });
    // The answer's record is its own (made per response): the content type goes into it unless it has one, not into a copy of it.
    response.headers['content-type'] ??= 'application/json';
    return plainAnswer(c, JSON.stringify(body), 200, response.headers);
  });
}
