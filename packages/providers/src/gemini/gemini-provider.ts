import { ProviderError } from '@svc/core';
import type { CallOptions, EmbeddingRequest, Provider, ProviderChatRequest, ProviderSettings } from '../provider.js';
import type { HttpClient, HttpResponse } from '../shared/http-client.js';
import { postJsonWithBodyRetryHint, readResponseJson, resolveHttpClient } from '../shared/http.js';
import { KeyPool } from '../shared/key-pool.js';
import { firstEventTimer, readSse } from '../shared/sse.js';
import { parseGeminiResponse } from './gemini-chat.js';
import { geminiEmbed } from './gemini-embed.js';
import { classifyGeminiError } from './gemini-error.js';
import { type PreparedGeminiRequest, buildGeminiRequest } from './gemini-request.js';
import { streamGeminiEvents } from './gemini-stream.js';

/** Default endpoint; `settings.baseUrl` replaces it and excludes the version (`/v1beta`). */
export const GEMINI_BASE_URL = 'https://generativelanguage.googleapis.com';

const PROVIDER = 'gemini';

/** A ProviderError with the retry hint of Gemini's error body, when the answer's headers gave none. */
function withRetryHint(error: unknown, retryAfterMs: number | undefined): unknown {
  if (!(error instanceof ProviderError) || error.retryAfterMs !== undefined || retryAfterMs === undefined) return error;
  return new ProviderError({
    provider: PROVIDER,
    kind: error.kind,
    message: error.message,
    upstreamStatus: error.upstreamStatus,
    upstreamCode: error.upstreamCode,
    retryAfterMs,
    param: error.param,
  });
}

/** What every call of one Gemini adapter shares. */
interface GeminiClient {
  http: HttpClient;
  keys: KeyPool;
  settings: ProviderSettings;
}

/** POSTs to `url`; a non-2xx answer rejects with a ProviderError that keeps Gemini's retry hint. */
async function post(client: GeminiClient, call: { url: string; body: unknown; options: CallOptions; accept: string }): Promise<HttpResponse> {
  const { http, keys, settings } = client;
  const { url, body, options, accept } = call;
  return postJsonWithBodyRetryHint(
    {
      provider: PROVIDER,
      http,
      url,
      headers: { accept, ...settings.headers, ...options.headers, 'x-goog-api-key': options.apiKey ?? keys.take().key },
      body,
      signal: options.signal,
      onResponse: options.onResponse,
      firstByteBy: options.firstByteBy,
      classify: classifyGeminiError,
    },
    withRetryHint,
  );
}

/**
 * The Gemini API adapter, id `gemini`: `POST {baseUrl}/v1beta/models/{model}:generateContent`
 * and `:streamGenerateContent?alt=sse`; embeddings through `:batchEmbedContents` (see `geminiEmbed`).
 *
 * Keys go in `x-goog-api-key` (never the `?key=` query, which ends up in access logs):
 * `options.apiKey` when the call stage picked one, else the pool's next key in turn.
 * See `buildGeminiRequest` for the parameter mapping.
 */
export function createGeminiProvider(settings: ProviderSettings): Provider {
  const root = `${(settings.baseUrl ?? GEMINI_BASE_URL).replace(/\/+$/, '')}/v1beta/models/`;
  const keys = new KeyPool(settings.apiKeys);
  const client: GeminiClient = { http: resolveHttpClient(settings), keys, settings };

  function send(request: ProviderChatRequest, prepared: PreparedGeminiRequest, options: CallOptions, stream: boolean): Promise<HttpResponse> {
    const model = encodeURIComponent(request.model);
    const url = stream ? `${root}${model}:streamGenerateContent?alt=sse` : `${root}${model}:generateContent`;
    return post(client, { url, body: prepared.body, options, accept: stream ? 'text/event-stream' : 'application/json' });
  }

  return {
    id: PROVIDER,
    // The shared undici client keeps the first-byte bound itself: no signal of the caller's own per call.
    boundsFirstByte: client.http.boundsFirstByte === true,

    async chat(request: ProviderChatRequest, options: CallOptions = {}) {
      const prepared = buildGeminiRequest(request);
      const response = await send(request, prepared, options, false);
      return parseGeminiResponse(await readResponseJson(PROVIDER, response, options.signal), prepared);
    },

    async stream(request: ProviderChatRequest, options: CallOptions = {}) {
      const prepared = buildGeminiRequest(request);
      const response = await send(request, prepared, options, true);
      return streamGeminiEvents(readSse(PROVIDER, response.body, options.signal, firstEventTimer(response, options.firstByteBy)), prepared);
    },

    embed: (request: EmbeddingRequest, options: CallOptions = {}) =>
      geminiEmbed(request, options, (model, body, batchOptions) =>
        post(client, { url: `${root}${encodeURIComponent(model)}:batchEmbedContents`, body, options: batchOptions, accept: 'application/json' }),
      ),
  };
}
