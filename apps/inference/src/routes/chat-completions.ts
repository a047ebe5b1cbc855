import { requireScope } from '@svc/auth';
import { GatewayError, chatCompletionId, toGatewayError } from '@svc/core';
import type { ChatStreamResponse } from '@svc/pipeline';
import { ChatChunkEncoder, applyLegacyHeaders, decodeChatRequest, encodeChatCompletion } from '@svc/protocol';
import type { Hono } from 'hono';
import type { InferenceDeps } from '../deps.js';
import type { AppEnv } from '../env.js';
import { onClientGone, readHeader } from '../node-request.js';
import { readJson } from '../read-body.js';
import { sseResponse } from '../sse-response.js';

/** Headers from the caller that providers may need (prompt caching betas). */
const forwarded = ['anthropic-beta'] as const;

export function registerChatCompletions(app: Hono<AppEnv>, deps: InferenceDeps): void {
  // Auth / rate-limit probe: 204 when the key is good, 401 otherwise (middleware throws).
  // Hono dispatches HEAD as GET, so the probe lives on GET and a real GET is refused.
  app.get('/v1/chat/completions', (c) => {
    if (c.req.raw.method !== 'HEAD') {
      throw new GatewayError({ status: 405, type: 'invalid_request_error', code: 'method_not_allowed', message: 'Use POST /v1/chat/completions.' });
    }
    requireScope(c.get('caller'), 'inference:chat');
    return c.body(null, 204, { 'x-svc-org-id': c.get('caller').org.id });
  });

  app.post('/v1/chat/completions', async (c) => {
    const caller = c.get('caller');
    requireScope(caller, 'inference:chat');
    const request = decodeChatRequest(await readJson(c, deps.maxBodyBytes));
    applyLegacyHeaders(request, (name) => readHeader(c, name));
    const abort = new AbortController();
    onClientGone(c, () => abort.abort());
    let forwardHeaders: Record<string, string> | undefined;
    for (const name of forwarded) {
      const value = readHeader(c, name);
      if (value) forwardHeaders = { ...forwardHeaders, [name]: value };
    }
    const response = await deps.gateway.chat(request, {
      caller,
      requestId: c.get('requestId'),
      startedAt: c.get('startedAt'),
      signal: abort.signal,
      intelligenceModeHeader: readHeader(c, 'x-intelligence-mode') ?? null,
      ...(forwardHeaders ? { forwardHeaders } : {}),
    });
    const created = Math.floor(Date.now() / 1000);
    if (response.kind === 'json') {
      const { body } = encodeChatCompletion(response.result, {
        id: chatCompletionId(),
        created,
        model: response.metadata.model ?? response.result.model,
        svcMetadata: response.metadata,
      });
      return c.body(JSON.stringify(body), 200, { 'content-type': 'application/json', ...response.headers });
    }
    const encoder = new ChatChunkEncoder({ id: chatCompletionId(), created, model: response.model, includeUsage: request.includeUsage, n: request.n });
    return sseResponse(chunks(encoder, response), {
      headers: response.headers,
      keepAliveMs: deps.keepAliveMs ?? 15_000,
      keepAlive: encoder.keepAlive(),
      onCancel: () => abort.abort(),
    });
  });
}

/** Role chunk first, token chunks as they come, then usage and [DONE], or an error event. */
async function* chunks(encoder: ChatChunkEncoder, response: ChatStreamResponse): AsyncGenerator<string> {
  yield encoder.start();
  try {
    for await (const event of response.events) {
      const chunk = encoder.event(event);
      if (chunk) yield chunk;
    }
  } catch (error) {
    yield encoder.error(toGatewayError(error));
    return;
  }
  yield encoder.end(response.metadata());
}
