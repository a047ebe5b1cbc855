import { modelNotFound } from '@svc/core';
import { bearer, defineRoute, jsonResponse } from '@svc/openapi';
import { countPromptTokens } from '@svc/pipeline';
import { countTokensRequestSchema, decodeCountTokensRequest } from '@svc/protocol';
import { type RouteRegistry, readJson } from '@svc/http-kit';
import type { InferenceDeps } from '../deps.js';
import type { AppEnv } from '../env.js';
import { reportMode } from '../report-mode.js';
import { routingAliases } from './models.js';

export const messagesCountTokensRoute = defineRoute({
  method: 'post',
  path: '/v1/messages/count_tokens',
  operationId: 'countMessageTokens',
  summary: 'Count the input tokens of a message (Anthropic Messages API)',
  description:
    "Anthropic-compatible: the `/v1/messages` body without `max_tokens` and `stream`; answers `{input_tokens}`. Counted by the gateway with the o200k tokenizer over the system prompt, the turns, tool calls and results, and the tool definitions (images at a fixed 1,600 tokens): exact for OpenAI's o200k models, an estimate for the others. Nothing is sent upstream, billed or rate-limited. Every error uses Anthropic's envelope.",
  tags: ['Messages'],
  auth: bearer('inference:chat'),
  body: { schema: countTokensRequestSchema, name: 'CountMessageTokensRequest' },
  responses: { 200: jsonResponse('`{input_tokens}`: the prompt tokens the request would send.') },
  errors: [400, 413],
  errorFormat: 'anthropic',
});

/**
 * `POST /v1/messages/count_tokens`. The model must be one `/v1/messages` would serve (a catalog
 * chat model, a name passed through to a configured provider or one of the organisation's own
 * keys, or a routing alias), so a typo fails here as it would there.
 */
export function registerMessagesCountTokens(routes: RouteRegistry<AppEnv>, deps: InferenceDeps): void {
  routes.add(messagesCountTokensRoute, reportMode(), async (c) => {
    const request = decodeCountTokensRequest(await readJson(c, deps.maxBodyBytes));
    const alias = routingAliases.includes(request.model.toLowerCase()) || request.model.toLowerCase() === 'auto';
    if (!alias && !(await deps.gateway.namedChatModel(request.model, c.get('caller').org))) {
      throw modelNotFound(`The model '${request.model}' does not exist or is not available. GET /v1/models lists the available models.`);
    }
    return c.json({ input_tokens: await countPromptTokens(request) }, 200, { 'request-id': c.get('requestId') });
  });
}
