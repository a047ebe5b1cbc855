import type { CallOptions, Provider, ProviderChatRequest, ProviderSettings } from '../provider.js';
import type { HttpResponse } from '../shared/http-client.js';
import { postJson, readResponseJson, resolveHttpClient } from '../shared/http.js';
import { KeyPool } from '../shared/key-pool.js';
import { firstEventTimer, readSse } from '../shared/sse.js';
import { anthropicBatches } from './anthropic-batches.js';
import { parseAnthropicMessage } from './anthropic-chat.js';
import { classifyAnthropicError } from './anthropic-error.js';
import { type PreparedAnthropicRequest, buildAnthropicRequest } from './anthropic-request.js';
import { streamAnthropicEvents } from './anthropic-stream.js';

/** Default endpoint; `settings.baseUrl` replaces it and, like the official SDK's, excludes `/v1`. */
export const ANTHROPIC_BASE_URL = 'https://api.anthropic.com';
/** The API version every request pins; a caller may override it through headers. */
export const ANTHROPIC_VERSION = '2023-06-01';

const PROVIDER = 'anthropic';

/**
 * The Anthropic Messages adapter (`POST {baseUrl}/v1/messages`), id `anthropic`.
 *
 * Keys: `options.apiKey` when the call stage picked one, else the pool's next key in turn.
 * Headers: `anthropic-version`, then `settings.headers`, then `options.headers` (e.g.
 * `anthropic-beta`), then `x-api-key`, which nothing overrides.
 * See `buildAnthropicRequest` for the parameter mapping and the JSON-mode strategy.
 */
export function createAnthropicProvider(settings: ProviderSettings): Provider {
  const base = (settings.baseUrl ?? ANTHROPIC_BASE_URL).replace(/\/+$/, '');
  const url = `${base}/v1/messages`;
  const keys = new KeyPool(settings.apiKeys);
  const http = resolveHttpClient(settings);

  async function send(prepared: PreparedAnthropicRequest, options: CallOptions, stream: boolean): Promise<HttpResponse> {
    return postJson({
      provider: PROVIDER,
      http,
      url,
      headers: {
        accept: stream ? 'text/event-stream' : 'application/json',
        'anthropic-version': ANTHROPIC_VERSION,
        ...settings.headers,
        ...options.headers,
        'x-api-key': options.apiKey ?? keys.take().key,
      },
      body: prepared.body,
      signal: options.signal,
      onResponse: options.onResponse,
      firstByteBy: options.firstByteBy,
      classify: classifyAnthropicError,
    });
  }

  return {
    id: PROVIDER,
    // The Messages API has no `n`: one answer per request.
    multipleChoices: false,
    // The shared undici client keeps the first-byte bound itself: no signal of the caller's own per call.
    boundsFirstByte: http.boundsFirstByte === true,

    async chat(request: ProviderChatRequest, options: CallOptions = {}) {
      const prepared = buildAnthropicRequest(request, false);
      const response = await send(prepared, options, false);
      return parseAnthropicMessage(await readResponseJson(PROVIDER, response, options.signal), prepared);
    },

    async stream(request: ProviderChatRequest, options: CallOptions = {}) {
      const prepared = buildAnthropicRequest(request, true);
      const response = await send(prepared, options, true);
      return streamAnthropicEvents(readSse(PROVIDER, response.body, options.signal, firstEventTimer(response, options.firstByteBy)), prepared);
    },

    batches: anthropicBatches({ http, base, pool: keys, headers: settings.headers, version: ANTHROPIC_VERSION }),
  };
}
