import { ProviderError } from '@svc/core';
import { parseAnthropicMessage } from '../anthropic/anthropic-chat.js';
import { buildAnthropicRequest } from '../anthropic/anthropic-request.js';
import { streamAnthropicEvents } from '../anthropic/anthropic-stream.js';
import { parseGeminiResponse } from '../gemini/gemini-chat.js';
import { type GeminiErrorClassification, classifyGeminiError } from '../gemini/gemini-error.js';
import { buildGeminiRequest } from '../gemini/gemini-request.js';
import { streamGeminiEvents } from '../gemini/gemini-stream.js';
import type { CallOptions, Provider, ProviderChatRequest, ProviderSettings } from '../provider.js';
import type { HttpClient, HttpResponse } from '../shared/http-client.js';
import { postJsonWithBodyRetryHint, readResponseJson, resolveHttpClient } from '../shared/http.js';
import { firstEventTimer, readSse } from '../shared/sse.js';
import { vertexAnthropicBody } from './vertex-anthropic.js';
import { asVertexError, asVertexStream, classifyVertexAnthropicError } from './vertex-error.js';
import { vertexBaseUrl, vertexModelUrl, vertexPublisher } from './vertex-url.js';

/** Settings of the Vertex AI adapter. */
export interface VertexSettings extends Omit<ProviderSettings, 'apiKeys'> {
  /** Google Cloud project id. */
  project: string;
  /** Vertex location, e.g. `us-central1`, `europe-west4` or `global`. */
  location: string;
  /**
   * An OAuth 2 access token, or a function returning a current one; it is called per request,
   * so it should cache and refresh the token itself. Minting tokens (service accounts, ADC) is
   * the caller's business. `CallOptions.apiKey`, when given, is used as the token instead.
   */
  accessToken: string | (() => Promise<string>);
  /** Endpoint override, without `/v1`; default `https://{location}-aiplatform.googleapis.com`. */
  baseUrl?: string;
}

const PROVIDER = 'vertex';

type Classify = (status: number, body: string) => GeminiErrorClassification;

/** What every call of one Vertex adapter shares. */
interface VertexClient {
  http: HttpClient;
  settings: VertexSettings;
}

/** The OAuth token of a call: the call's own key, else the settings' token (minted per request when a function). */
async function token(settings: VertexSettings, options: CallOptions): Promise<string> {
  if (options.apiKey) return options.apiKey;
  if (typeof settings.accessToken === 'string') return settings.accessToken;
  try {
    return await settings.accessToken();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ProviderError({ provider: PROVIDER, kind: 'authentication', message: `Could not get a Vertex AI access token: ${reason}`, cause: error });
  }
}

/** POSTs one call; a non-2xx answer rejects with a `vertex` ProviderError that keeps Google's retry hint. */
async function post(client: VertexClient, call: { url: string; body: unknown; options: CallOptions; stream: boolean; classify: Classify }): Promise<HttpResponse> {
  const { http, settings } = client;
  const { url, body, options, stream, classify } = call;
  // The Google error body may carry RetryInfo; asVertexError re-attaches it (as the Gemini adapter does).
  return postJsonWithBodyRetryHint(
    {
      provider: PROVIDER,
      http,
      url,
      headers: {
        accept: stream ? 'text/event-stream' : 'application/json',
        ...settings.headers,
        ...options.headers,
        authorization: `Bearer ${await token(settings, options)}`,
      },
      body,
      signal: options.signal,
      onResponse: options.onResponse,
      firstByteBy: options.firstByteBy,
      classify,
    },
    asVertexError,
  );
}

/**
 * The Vertex AI adapter, id `vertex`, routing by model name:
 * - `claude-*` -> Anthropic's publisher, `:rawPredict` / `:streamRawPredict` with the Messages
 *   body (no `model`, `anthropic_version: vertex-2023-10-16`), read by the Anthropic adapter;
 * - anything else -> Google's publisher, `:generateContent` / `:streamGenerateContent?alt=sse`
 *   with the Gemini body, read by the Gemini adapter.
 *
 * `multipleChoices` is false because Claude answers one choice; Gemini requests are therefore
 * sent with one candidate too and the pipeline fans out for n > 1.
 */
export function createVertexProvider(settings: VertexSettings): Provider {
  const baseUrl = settings.baseUrl ?? vertexBaseUrl(settings.location);
  const client: VertexClient = { http: resolveHttpClient(settings), settings };
  const modelUrl = (model: string) => vertexModelUrl(baseUrl, settings.project, settings.location, model);

  async function chat(request: ProviderChatRequest, options: CallOptions) {
    const url = modelUrl(request.model);
    if (vertexPublisher(request.model) === 'anthropic') {
      const prepared = buildAnthropicRequest(request, false);
      const response = await post(client, { url: `${url}:rawPredict`, body: vertexAnthropicBody(prepared.body), options, stream: false, classify: classifyVertexAnthropicError });
      return parseAnthropicMessage(await readResponseJson(PROVIDER, response, options.signal), prepared);
    }
    const prepared = buildGeminiRequest({ ...request, n: 1 });
    const response = await post(client, { url: `${url}:generateContent`, body: prepared.body, options, stream: false, classify: classifyGeminiError });
    return parseGeminiResponse(await readResponseJson(PROVIDER, response, options.signal), prepared);
  }

  async function stream(request: ProviderChatRequest, options: CallOptions) {
    const url = modelUrl(request.model);
    if (vertexPublisher(request.model) === 'anthropic') {
      const prepared = buildAnthropicRequest(request, true);
      const response = await post(client, { url: `${url}:streamRawPredict`, body: vertexAnthropicBody(prepared.body), options, stream: true, classify: classifyVertexAnthropicError });
      return asVertexStream(streamAnthropicEvents(readSse(PROVIDER, response.body, options.signal, firstEventTimer(response, options.firstByteBy)), prepared));
    }
    const prepared = buildGeminiRequest({ ...request, n: 1 });
    const response = await post(client, { url: `${url}:streamGenerateContent?alt=sse`, body: prepared.body, options, stream: true, classify: classifyGeminiError });
    return asVertexStream(streamGeminiEvents(readSse(PROVIDER, response.body, options.signal, firstEventTimer(response, options.firstByteBy)), prepared));
  }

  return {
    id: PROVIDER,
    multipleChoices: false,
    // The shared undici client keeps the first-byte bound itself: no signal of the caller's own per call.
    boundsFirstByte: client.http.boundsFirstByte === true,
    // The reused builders and readers throw `anthropic`/`gemini` errors; rename them.
    chat: (request, options = {}) => chat(request, options).catch((error: unknown) => Promise.reject(asVertexError(error))),
    stream: (request, options = {}) => stream(request, options).catch((error: unknown) => Promise.reject(asVertexError(error))),
  };
}
