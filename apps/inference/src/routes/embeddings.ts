import { requireScope } from '@svc/auth';
import { embed } from '@svc/pipeline';
import { decodeEmbeddingsRequest, encodeEmbeddings } from '@svc/protocol';
import type { Hono } from 'hono';
import type { InferenceDeps } from '../deps.js';
import type { AppEnv } from '../env.js';
import { readJson } from '../read-body.js';
import { requestContext } from '../request-context.js';

/** `POST /v1/embeddings` through the pipeline's embed stage (limits, fallback, cost, ledger). */
export function registerEmbeddings(app: Hono<AppEnv>, deps: InferenceDeps): void {
  app.post('/v1/embeddings', async (c) => {
    requireScope(c.get('caller'), 'inference:embeddings');
    const { encodingFormat, ...request } = decodeEmbeddingsRequest(await readJson(c, deps.maxBodyBytes));
    const answer = await embed(deps, request, requestContext(c));
    const body = encodeEmbeddings(answer.embeddings, { model: answer.model, usage: answer.usage, encodingFormat, svcMetadata: answer.metadata });
    return c.body(JSON.stringify(body), 200, { 'content-type': 'application/json', ...answer.headers });
  });
}
