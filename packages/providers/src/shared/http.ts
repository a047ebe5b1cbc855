import { ProviderError, type ProviderErrorKind, kindFromStatus, parseRetryAfter } from '@svc/core';
import type { ProviderSettings } from '../provider.js';
import { fetchHttpClient } from './fetch-http-client.js';
import type { HttpClient, HttpHeaders, HttpResponse } from './http-client.js';
import { defaultHttpClient } from './undici-http-client.js';

/** The client a provider's settings ask for: `http`, else `fetch` wrapped, else the shared default. */
export function resolveHttpClient(settings: Pick<ProviderSettings, 'http' | 'fetch'>): HttpClient {
  if (settings.http) return settings.http;
  if (settings.fetch) return fetchHttpClient(settings.fetch);
  return defaultHttpClient();
}

export interface PostOptions {
  provider: string;
  http: HttpClient;
  url: string;
  headers: Record<string, string>;
  body: unknown;
  signal?: AbortSignal;
  /** Called as soon as the response headers have arrived (`CallOptions.onResponse`). */
  onResponse?: (() => void) | undefined;
  /** `CallOptions.firstByteBy`: the response headers must have come by then (a client that `boundsFirstByte`). */
  firstByteBy?: number | undefined;
  /** Reads the provider's error body into a kind/message; defaults to status-only mapping. */
  classify?: (status: number, body: string) => ErrorClassification;
}

export interface ErrorClassification {
  kind?: ProviderErrorKind;
  message?: string;
  code?: string;
  param?: string | null;
}

/**
 * POSTs JSON and returns the response when it is 2xx; any other status, or a transport failure,
 * becomes a ProviderError with a normalised kind. The body is serialised once, here.
 */
export async function postJson(options: PostOptions): Promise<HttpResponse> {
  let response: HttpResponse;
  try {
    response = await options.http.request({
      url: options.url,
      method: 'POST',
      headers: { 'content-type': 'application/json', ...options.headers },
      body: JSON.stringify(options.body),
      signal: options.signal,
      headersTimeoutMs: headersTimeoutMs(options.firstByteBy),
    });
  } catch (error) {
    throw transportError(options.provider, error, options.signal);
  }
  options.onResponse?.();
  if (response.status >= 200 && response.status < 300) return response;
  const text = await response.text().catch(() => '');
  throw statusError(options.provider, response, text, options.classify);
}

/**
 * {@link postJson} for providers whose error body carries a retry hint (Google's RetryInfo) that
 * `classify` reads but the ProviderError it builds cannot hold: a failure reaches `onFailure`
 * with that hint, and what it returns is thrown.
 */
export async function postJsonWithBodyRetryHint(
  options: Omit<PostOptions, 'classify'> & { classify: (status: number, body: string) => ErrorClassification & { retryAfterMs?: number } },
  onFailure: (error: unknown, retryAfterMs: number | undefined) => unknown,
): Promise<HttpResponse> {
  let retryAfterMs: number | undefined;
  const classify = (status: number, text: string): ErrorClassification => {
    const classified = options.classify(status, text);
    retryAfterMs = classified.retryAfterMs;
    return classified;
  };
  try {
    return await postJson({ ...options, classify });
  } catch (error) {
    throw onFailure(error, retryAfterMs);
  }
}

/** GETs `url` and returns the response when it is 2xx; any other status, or a transport failure, becomes a ProviderError as with {@link postJson}. */
export async function getOk(options: Omit<PostOptions, 'body' | 'onResponse'>): Promise<HttpResponse> {
  let response: HttpResponse;
  try {
    response = await options.http.request({ url: options.url, method: 'GET', headers: options.headers, signal: options.signal });
  } catch (error) {
    throw transportError(options.provider, error, options.signal);
  }
  if (response.status >= 200 && response.status < 300) return response;
  const text = await response.text().catch(() => '');
  throw statusError(options.provider, response, text, options.classify);
}

/** The JSON values of a JSONL body, one a line, as the bytes arrive (blank lines skipped). */
export async function* jsonLines(body: AsyncIterable<Uint8Array>): AsyncIterable<unknown> {
  const decoder = new TextDecoder();
  let rest = '';
  for await (const chunk of body) {
    rest += decoder.decode(chunk, { stream: true });
    const lines = rest.split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) if (line.trim() !== '') yield JSON.parse(line) as unknown;
  }
  rest += decoder.decode();
  if (rest.trim() !== '') yield JSON.parse(rest) as unknown;
}

/** The ProviderError of a non-2xx answer: the kind from the provider's error body when `classify` reads one, else from the status. */
export function statusError(provider: string, response: HttpResponse, text: string, classify: PostOptions['classify']): ProviderError {
  const classified = classify?.(response.status, text) ?? {};
  return new ProviderError({
    provider,
    kind: classified.kind ?? kindFromStatus(response.status),
    message: classified.message ?? (text.slice(0, 500) || `Upstream answered ${response.status}.`),
    upstreamStatus: response.status,
    upstreamCode: classified.code,
    retryAfterMs: retryAfter(response.headers),
    param: classified.param ?? null,
  });
}

/** What `postBody` sends: an already encoded body (multipart bytes, raw audio) and its content type. */
export interface PostBodyOptions extends Omit<PostOptions, 'body'> {
  body: Uint8Array | string;
  contentType: string;
}

/**
 * POSTs an already encoded body and reads the whole answer as text. A transport failure (also
 * while reading) or a non-2xx status is a ProviderError, as with `postJson`.
 */
export async function postBody(options: PostBodyOptions): Promise<{ response: HttpResponse; text: string }> {
  let response: HttpResponse;
  let text: string;
  try {
    response = await options.http.request({
      url: options.url,
      method: 'POST',
      headers: { ...options.headers, 'content-type': options.contentType },
      body: options.body,
      signal: options.signal,
    });
    options.onResponse?.();
    text = await response.text();
  } catch (error) {
    throw transportError(options.provider, error, options.signal);
  }
  if (response.status < 200 || response.status >= 300) throw statusError(options.provider, response, text, options.classify);
  return { response, text };
}

/** A FormData serialised by the platform's own encoder: its bytes and content type (with the boundary). */
export async function encodeMultipart(form: FormData): Promise<{ body: Uint8Array; contentType: string }> {
  const encoded = new Response(form);
  return { body: new Uint8Array(await encoded.arrayBuffer()), contentType: encoded.headers.get('content-type') ?? 'multipart/form-data' };
}

/** `parseRetryAfter` takes a WHATWG `Headers`; copy the two headers it reads into one (error path only). */
function retryAfter(headers: HttpHeaders): number | undefined {
  if (headers instanceof Headers) return parseRetryAfter(headers);
  const copy = new Headers();
  for (const name of ['retry-after-ms', 'retry-after']) {
    const value = headers.get(name);
    if (value !== null) copy.set(name, value);
  }
  return parseRetryAfter(copy);
}

/** `CallOptions.firstByteBy` as the client's wait for the response headers (`HttpRequest.headersTimeoutMs`), ms from now. */
export function headersTimeoutMs(firstByteBy: number | undefined): number | undefined {
  return firstByteBy === undefined ? undefined : Math.max(1, Math.ceil(firstByteBy - performance.now()));
}

/** A transport failure: our own abort/deadline is a timeout, anything else a network failure. */
export function transportError(provider: string, error: unknown, signal?: AbortSignal): ProviderError {
  if (error instanceof ProviderError) return error;
  const aborted = signal?.aborted === true || (error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError' || (error as { code?: unknown }).code === 'UND_ERR_HEADERS_TIMEOUT'));
  return new ProviderError({
    provider,
    kind: aborted ? 'timeout' : 'network',
    message: aborted ? `Request to ${provider} was aborted or timed out.` : `Could not reach ${provider}: ${error instanceof Error ? error.message : String(error)}`,
    cause: error,
  });
}

/**
 * Reads a 2xx body as JSON: a failure while reading is a transport error (timeout/network), a
 * body that is not JSON a `server` error.
 */
export async function readResponseJson(provider: string, response: HttpResponse, signal: AbortSignal | undefined): Promise<unknown> {
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    throw transportError(provider, error, signal);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ProviderError({ provider, kind: 'server', message: `${provider} sent a malformed JSON response.`, upstreamStatus: response.status, cause: error });
  }
}

/** Reads `error.message`-style fields out of a JSON error body without trusting its shape. */
export function readErrorBody(text: string): ErrorFields {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return {};
  }
  return readErrorObject(parsed);
}

/** The fields `readErrorBody` extracts. */
export interface ErrorFields {
  message?: string;
  type?: string;
  code?: string;
  param?: string;
}

/** `readErrorBody` for an already parsed value (an error event inside a stream). */
export function readErrorObject(parsed: unknown): ErrorFields {
  const root = isRecord(parsed) ? (isRecord(parsed.error) ? parsed.error : parsed) : undefined;
  if (!root) return {};
  return {
    message: typeof root.message === 'string' ? root.message : undefined,
    type: typeof root.type === 'string' ? root.type : typeof root.status === 'string' ? root.status : undefined,
    code: typeof root.code === 'string' ? root.code : typeof root.code === 'number' ? String(root.code) : undefined,
    param: typeof root.param === 'string' ? root.param : undefined,
  };
}

/** An error body parsed as a JSON object, or undefined when it is not one. */
export function readErrorRecord(text: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    return isRecord(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
