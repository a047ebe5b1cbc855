import { bearer, defineRoute, jsonResponse } from '@svc/openapi';
import { moderate } from '@svc/pipeline';
import { decodeModerationsRequest, moderationsRequestSchema } from '@svc/protocol';
import { type RouteRegistry, readJson } from '@svc/http-kit';
import type { InferenceDeps } from '../deps.js';
import type { AppEnv } from '../env.js';
import { exchangeOf } from '../request-context.js';
import { answerHeaders, callErrors } from './answer-headers.js';

export const moderationsRoute = defineRoute({
  method: 'post',
  path: '/v1/moderations',
  operationId: 'createModeration',
  summary: 'Classify text or images for policy violations',
  tags: ['Moderations'],
  auth: bearer('inference:moderations'),
  body: { schema: moderationsRequestSchema, name: 'CreateModerationRequest' },
  responses: { 200: jsonResponse("The provider's verdicts (`id`, `model`, `results`).", answerHeaders) },
  errors: callErrors,
});

/** `POST /v1/moderations`: the provider's verdicts in the OpenAI shape (`id`, `model`, `results`). */
export function registerModerations(routes: RouteRegistry<AppEnv>, deps: InferenceDeps): void {
  routes.add(moderationsRoute, async (c) => {
    const request = decodeModerationsRequest(await readJson(c, deps.maxBodyBytes));
    const { moderation, headers } = await moderate(deps, request, exchangeOf(c));
    return c.body(JSON.stringify(moderation), 200, { 'content-type': 'application/json', ...headers });
  });
}
