/**
 * The HTTP transport the provider adapters speak through. Two implementations:
 * `createUndiciHttpClient` (the default, undici's `request()` over a shared keep-alive agent)
 * and `fetchHttpClient` (wraps any `fetch`, for tests and proxies).
 */
export interface HttpClient {
  /**
   * Sends one request and resolves once the response headers arrived, whatever the status.
   * Rejects on a transport failure or when `signal` aborts before the headers.
   */
  request(request: HttpRequest): Promise<HttpResponse>;
  /** True when `request()` honours `headersTimeoutMs` and its responses have `abort()`. */
  readonly boundsFirstByte?: boolean;
}

export interface HttpRequest {
  /** Absolute `http:`/`https:` URL. */
  url: string;
  method: 'GET' | 'POST';
  /** Header names in lowercase. */
  headers: Readonly<Record<string, string>>;
  /** Already serialised (JSON text, or multipart bytes); sent as is, never copied or teed. */
  body?: string | Uint8Array;
  /** Aborts the request, and the body while it is being read. */
  signal?: AbortSignal;
  /** Longest wait for the response headers, ms (at least 1); past it `request()` rejects (a timeout). Only where `boundsFirstByte`. */
  headersTimeoutMs?: number;
}

/** The response headers; `get` is case-insensitive and joins repeated headers with `, `. */
export interface HttpHeaders {
  get(name: string): string | null;
}

/**
 * A response whose body has not been read yet. Read it exactly once, through `text()` or
 * `body`. A transport failure or an abort while reading rejects the read.
 */
export interface HttpResponse {
  status: number;
  headers: HttpHeaders;
  /** The whole body as UTF-8 text. */
  text(): Promise<string>;
  /**
   * The body's bytes as they arrive. Ending the iteration early (`break`, `return()`, a throw
   * in the loop) releases the upstream request: its connection is closed, not reused.
   */
  body: AsyncIterable<Uint8Array>;
  /** Ends the response now: a read in progress or to come rejects with `error`, and the connection is closed. Only where `boundsFirstByte`. */
  abort?(error: Error): void;
}
