import type { CallOptions, EmbeddingRequest, Provider, ProviderChatRequest, ProviderSettings } from '../provider.js';
import type { HttpResponse } from '../shared/http-client.js';
import { postJson, readResponseJson, resolveHttpClient } from '../shared/http.js';
import { KeyPool } from '../shared/key-pool.js';
import { firstEventTimer, readSse } from '../shared/sse.js';
import type { CohereChatRequestBody } from './cohere-api.js';
import { parseCohereResponse } from './cohere-chat.js';
import { cohereEmbed } from './cohere-embed.js';
import { classifyCohereError } from './cohere-error.js';
import { buildCohereRequest } from './cohere-request.js';
import { streamCohereEvents } from './cohere-stream.js';

/** Default endpoint; `settings.baseUrl` replaces it and excludes the version (`/v2`). */
export const COHERE_BASE_URL = 'https://api.cohere.com';

const PROVIDER = 'cohere';

/**
 * The Cohere v2 chat adapter (`POST {baseUrl}/v2/chat`), id `cohere`, with embeddings
 * (`POST {baseUrl}/v2/embed`, see `cohereEmbed`).
 *
 * Keys go in `Authorization: Bearer`: `options.apiKey` when the call stage picked one, else the
 * pool's next key in turn. Headers: `settings.headers`, then `options.headers`, then the key,
 * which nothing overrides. See `buildCohereRequest` for the parameter mapping.
 */
export function createCohereProvider(settings: ProviderSettings): Provider {
  const base = (settings.baseUrl ?? COHERE_BASE_URL).replace(/\/+$/, '');
  const chatUrl = `${base}/v2/chat`;
  const keys = new KeyPool(settings.apiKeys);
  const http = resolveHttpClient(settings);

  function post(url: string, body: unknown, options: CallOptions, accept: string): Promise<HttpResponse> {
    return postJson({
      provider: PROVIDER,
      http,
      url,
      headers: {
        accept,
        ...settings.headers,
        ...options.headers,
        authorization: `Bearer ${options.apiKey ?? keys.take().key}`,
      },
      body,
      signal: options.signal,
      onResponse: options.onResponse,
      firstByteBy: options.firstByteBy,
      classify: classifyCohereError,
    });
  }

  function send(body: CohereChatRequestBody, options: CallOptions, stream: boolean): Promise<HttpResponse> {
    return post(chatUrl, body, options, stream ? 'text/event-stream' : 'application/json');
  }

  return {
    id: PROVIDER,
    // The v2 chat API has no `n`: one answer per request.
    multipleChoices: false,
    // The shared undici client keeps the first-byte bound itself: no signal of the caller's own per call.
    boundsFirstByte: http.boundsFirstByte === true,

    async chat(request: ProviderChatRequest, options: CallOptions = {}) {
      const response = await send(buildCohereRequest(request, false), options, false);
      return parseCohereResponse(await readResponseJson(PROVIDER, response, options.signal), request.model);
    },

    async stream(request: ProviderChatRequest, options: CallOptions = {}) {
      const response = await send(buildCohereRequest(request, true), options, true);
      return streamCohereEvents(readSse(PROVIDER, response.body, options.signal, firstEventTimer(response, options.firstByteBy)));
    },

    embed: (request: EmbeddingRequest, options: CallOptions = {}) =>
      cohereEmbed(request, options, (body, batchOptions) => post(`${base}/v2/embed`, body, batchOptions, 'application/json')),
  };
}
