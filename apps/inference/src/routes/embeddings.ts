import { bearer, defineRoute, jsonResponse } from '@svc/openapi';
import { type EmbedDeps, type Exchange, embed } from '@svc/pipeline';
import { decodeEmbeddingsRequest, embeddingsRequestSchema, encodeEmbeddings } from '@svc/protocol';
import { type RouteRegistry, readJson } from '@svc/http-kit';
import type { InferenceDeps } from '../deps.js';
import type { AppEnv } from '../env.js';
import { exchangeOf } from '../request-context.js';
import { answerHeaders, callErrors } from './answer-headers.js';

export const embeddingsRoute = defineRoute({
  method: 'post',
  path: '/v1/embeddings',
  operationId: 'createEmbedding',
  summary: 'Create embeddings',
  description: 'Vectors for one or more inputs, as floats or base64, with fallback across embedding models.',
  tags: ['Embeddings'],
  auth: bearer('inference:embeddings'),
  body: { schema: embeddingsRequestSchema, name: 'CreateEmbeddingRequest' },
  responses: { 200: jsonResponse('The embeddings (`list` of `embedding`).', answerHeaders) },
  errors: callErrors,
});

/** An embeddings request body through the embed stage, answered as the `list` of `embedding` objects (the route's, and a batch line's). */
export async function embeddingsAnswer(deps: EmbedDeps, body: unknown, exchange: Exchange): Promise<{ body: object; headers: Record<string, string> }> {
  const { encodingFormat, ...request } = decodeEmbeddingsRequest(body);
  const answer = await embed(deps, request, exchange);
  return { body: encodeEmbeddings(answer.embeddings, { model: answer.model, usage: answer.usage, encodingFormat, svcMetadata: answer.metadata }), headers: answer.headers };
}

/** `POST /v1/embeddings` through the pipeline's embed stage (limits, fallback, cost, ledger). */
export function registerEmbeddings(routes: RouteRegistry<AppEnv>, deps: InferenceDeps): void {
  routes.add(embeddingsRoute, async (c) => {
    const body = await readJson(c, deps.maxBodyBytes);
    const answer = await embeddingsAnswer(deps, body, exchangeOf(c));
    return c.body(JSON.stringify(answer.body), 200, { 'content-type': 'application/json', ...answer.headers });
  });
}
