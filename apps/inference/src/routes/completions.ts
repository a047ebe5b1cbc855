import { requireScope } from '@svc/auth';
import { randomId } from '@svc/core';
import { decodeCompletionsRequest, encodeCompletion } from '@svc/protocol';
import type { Hono } from 'hono';
import type { InferenceDeps } from '../deps.js';
import type { AppEnv } from '../env.js';
import { readJson } from '../read-body.js';
import { requestContext } from '../request-context.js';

/** Legacy `POST /v1/completions`: one user message through the chat pipeline, answered as `text_completion`. */
export function registerCompletions(app: Hono<AppEnv>, deps: InferenceDeps): void {
  app.post('/v1/completions', async (c) => {
    requireScope(c.get('caller'), 'inference:chat');
    const { request, prompt, echo, notApplied } = decodeCompletionsRequest(await readJson(c, deps.maxBodyBytes));
    const response = await deps.gateway.chat(request, requestContext(c));
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
    return c.body(JSON.stringify(body), 200, { 'content-type': 'application/json', ...response.headers });
  });
}
