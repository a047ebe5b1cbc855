import type { CallOptions, EmbeddingRequest, Provider, ProviderChatRequest, ProviderSettings } from '../provider.js';
import type { HttpResponse } from '../shared/http-client.js';
import { headersTimeoutMs, readResponseJson, resolveHttpClient, transportError } from '../shared/http.js';
import { firstEventTimer } from '../shared/sse.js';
import { KeyPool } from '../shared/key-pool.js';
import { type BedrockCredentials, decodeBedrockKey, encodeBedrockCredentials } from './bedrock-auth.js';
import { parseBedrockResponse } from './bedrock-chat.js';
import { bedrockEmbed } from './bedrock-embed.js';
import { bedrockHttpError } from './bedrock-error.js';
import { type PreparedBedrockRequest, buildBedrockRequest } from './bedrock-request.js';
import { streamBedrockEvents } from './bedrock-stream.js';
import { loadBedrockWire } from './bedrock-wire.js';

/** Settings of the Bedrock adapter. At least one credential set or API key is required. */
export interface BedrockSettings extends Omit<ProviderSettings, 'apiKeys' | 'baseUrl'> {
  /** AWS region, e.g. `us-east-1`; part of the endpoint and of the SigV4 scope. */
  region: string;
  /** AWS credentials; several sets form a pool taken round-robin. */
  credentials?: BedrockCredentials | readonly BedrockCredentials[];
  /** Amazon Bedrock API keys (sent as `Authorization: Bearer`), pooled after `credentials`. */
  apiKeys?: readonly string[];
  /** Endpoint override; default `https://bedrock-runtime.{region}.amazonaws.com`. */
  baseUrl?: string;
  /** The signing clock (tests). Default: the system clock. */
  clock?: () => Date;
}

const PROVIDER = 'bedrock';

/**
 * The pool keys of `settings`, in the string form `CallOptions.apiKey` takes: credential sets as
 * `ACCESS_KEY_ID:SECRET_ACCESS_KEY[:SESSION_TOKEN]`, then the API keys. For key fall-through.
 */
export function bedrockPoolKeys(settings: Pick<BedrockSettings, 'credentials' | 'apiKeys'>): string[] {
  const credentials = settings.credentials === undefined ? [] : 'accessKeyId' in settings.credentials ? [settings.credentials] : settings.credentials;
  return [...credentials.map(encodeBedrockCredentials), ...(settings.apiKeys ?? [])];
}

/** The default endpoint of a region. */
export function bedrockBaseUrl(region: string): string {
  return `https://bedrock-runtime.${region}.amazonaws.com`;
}

/**
 * The Amazon Bedrock Converse adapter, id `bedrock`: `POST {baseUrl}/model/{modelId}/converse`
 * and `/converse-stream` (an `application/vnd.amazon.eventstream` body), signed with SigV4;
 * embeddings through `InvokeModel` (`/model/{modelId}/invoke`, see `bedrockEmbed`).
 *
 * The model id may be a foundation model (`anthropic.claude-sonnet-4-5-20250929-v1:0`), an
 * inference profile (`us.anthropic...`) or an ARN; it is one URL path segment, percent-encoded.
 * Keys: `options.apiKey` (pool-key form, see `bedrockPoolKeys`) when the call stage picked one,
 * else the pool's next key in turn. See `buildBedrockRequest` for the parameter mapping.
 */
export function createBedrockProvider(settings: BedrockSettings): Provider {
  const root = `${(settings.baseUrl ?? bedrockBaseUrl(settings.region)).replace(/\/+$/, '')}/model/`;
  const keys = new KeyPool(bedrockPoolKeys(settings));
  const http = resolveHttpClient(settings);
  // Smithy loads now, at configuration; a call awaits the promise long settled.
  const wire = loadBedrockWire();
  const signer = wire.then((loaded) => new loaded.BedrockSigner(settings.region));
  // A load that failed fails each call (and the start, which awaits loadConfiguredProviders), never the process.
  signer.catch(() => {});

  /** Signs and POSTs `body` to `url`; a non-2xx answer rejects with a ProviderError. */
  async function post(url: URL, body: string, options: CallOptions): Promise<HttpResponse> {
    const auth = decodeBedrockKey(options.apiKey ?? keys.take().key);
    // Only content-type, as the AWS SDK sends: Bedrock picks the answer's format by operation.
    const unsigned = { ...settings.headers, ...options.headers, 'content-type': 'application/json' };
    const headers = await (await signer).sign(auth, { url, headers: lowercase(unsigned), body }, settings.clock?.());
    let response: HttpResponse;
    try {
      response = await http.request({ url: url.href, method: 'POST', headers, body, signal: options.signal, headersTimeoutMs: headersTimeoutMs(options.firstByteBy) });
    } catch (error) {
      throw transportError(PROVIDER, error, options.signal);
    }
    options.onResponse?.();
    if (response.status >= 200 && response.status < 300) return response;
    const text = await response.text().catch(() => '');
    throw bedrockHttpError(response.status, response.headers, text);
  }

  function send(request: ProviderChatRequest, prepared: PreparedBedrockRequest, options: CallOptions, stream: boolean): Promise<HttpResponse> {
    const url = new URL(`${root}${encodeURIComponent(request.model)}/${stream ? 'converse-stream' : 'converse'}`);
    return post(url, JSON.stringify(prepared.body), options);
  }

  return {
    id: PROVIDER,
    // Converse has no `n`: one answer per request.
    multipleChoices: false,
    // The shared undici client keeps the first-byte bound itself: no signal of the caller's own per call.
    boundsFirstByte: http.boundsFirstByte === true,

    async chat(request: ProviderChatRequest, options: CallOptions = {}) {
      const prepared = buildBedrockRequest(request);
      const response = await send(request, prepared, options, false);
      const json = await readResponseJson(PROVIDER, response, options.signal);
      return parseBedrockResponse(json, prepared, meta(request, response));
    },

    async stream(request: ProviderChatRequest, options: CallOptions = {}) {
      const prepared = buildBedrockRequest(request);
      const response = await send(request, prepared, options, true);
      const { readBedrockEventStream } = await wire;
      return streamBedrockEvents(readBedrockEventStream(response.body, options.signal, firstEventTimer(response, options.firstByteBy)), prepared, meta(request, response));
    },

    embed: (request: EmbeddingRequest, options: CallOptions = {}) =>
      bedrockEmbed(request, options, (body, callOptions) => post(new URL(`${root}${encodeURIComponent(request.model)}/invoke`), JSON.stringify(body), callOptions)),
  };
}

/** Converse echoes no id or model: the AWS request id and the model asked for stand in. */
function meta(request: ProviderChatRequest, response: HttpResponse): { model: string; id?: string } {
  const id = response.headers.get('x-amzn-requestid');
  return id ? { model: request.model, id } : { model: request.model };
}

/** Signed header names must match what goes on the wire; HttpRequest wants them lowercase anyway. */
function lowercase(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) out[name.toLowerCase()] = value;
  return out;
}
