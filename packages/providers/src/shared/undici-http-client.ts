/**
 * The default transport: undici's `request()` API on one shared keep-alive `Agent`.
 *
 * Why not the built-in `fetch`: it is the same undici underneath, but its WHATWG layer costs
 * more CPU than our whole per-request budget allows: a `Request` and `Response` object per
 * call, the request body wrapped in a `ReadableStream` (and cloned/teed), headers copied into
 * `Headers` lists, and for SSE two `TransformStream`s (`TextDecoderStream`,
 * `EventSourceParserStream`) touched per chunk. `request()` writes the string body straight to
 * the socket and hands back a Node `Readable`; SSE is framed by eventsource-parser's
 * `createParser` fed from the readable's chunks (see `sse.ts`).
 *
 * Measured with `src/shared/measure-http-transport.ts`: client-side CPU (user + system) per
 * request, N = 5,000 sequential requests, median of 3 rounds, against a node:http server in a
 * child process; Node 20.20 on a shared 2-core VM (load ~3), two runs:
 *
 *   case                           old: fetch + web streams   new: this client   fetchHttpClient
 *   JSON POST + JSON answer        609-664 µs                 181-195 µs         548-612 µs
 *   SSE stream of 16 events        722-820 µs                 175-187 µs         498-524 µs
 *
 * That is ~3.4x (JSON) to ~4.3x (SSE) less CPU. The absolute figures are inflated by the busy
 * VM (a bare TCP ping-pong costs ~45 µs of CPU per round trip there); what this file and
 * `http.ts` add over a bare `agent.request()` + `body.text()` is within the run-to-run noise.
 */
import { createRequire } from 'node:module';
import type { Agent, Dispatcher } from 'undici';
import type { HttpClient, HttpHeaders, HttpRequest, HttpResponse } from './http-client.js';

export interface UndiciHttpClientOptions {
  /**
   * Most connections per origin. Default: unbounded. An LLM stream holds its connection for
   * seconds to minutes, so a cap here would queue requests silently behind slow streams; the
   * gateway's own concurrency limits are the place to bound load.
   */
  connections?: number;
  /**
   * How long an idle connection stays open for reuse, in ms. Default 10,000. A server's
   * `Keep-Alive: timeout=` hint, when shorter, wins (minus a 2 s safety margin, undici's rule),
   * so a connection is never reused just as the server closes it.
   */
  keepAliveTimeoutMs?: number;
  /** Longest wait for the response headers, in ms; 0 disables. Default 300,000, as `fetch`. */
  headersTimeoutMs?: number;
  /** Longest silence between two body chunks, in ms; 0 disables. Default 300,000, as `fetch`. */
  bodyTimeoutMs?: number;
  /** Longest TCP + TLS connect, in ms. Default 10,000 (undici's). A refused or slow connect is a `network` failure: the next candidate is tried. */
  connectTimeoutMs?: number;
}

/** An `HttpClient` that owns its connection pool. */
export interface UndiciHttpClient extends HttpClient {
  /** Lets in-flight requests finish, then closes every connection. */
  close(): Promise<void>;
}

/**
 * A keep-alive HTTP/1.1 client: one pool per origin inside one `Agent`, no pipelining (a
 * request queued behind a long stream on the same socket would wait for the stream to end).
 * Redirects are not followed: an LLM API does not redirect, and following one would send the
 * provider key (`x-api-key`, `x-goog-api-key`) to wherever it points. Compression is not asked
 * for: the bodies are small and decompressing costs the CPU this transport exists to save.
 */
export function createUndiciHttpClient(options: UndiciHttpClientOptions = {}): UndiciHttpClient {
  let agent: Agent | undefined;
  const dispatcher = (): Agent => {
    agent ??= newAgent(options);
    return agent;
  };
  return {
    boundsFirstByte: true,
    async request(request: HttpRequest): Promise<HttpResponse> {
      const target = splitUrl(request.url);
      const response = await dispatcher().request({
        origin: target.origin,
        path: target.path,
        method: request.method,
        headers: request.headers,
        body: request.body ?? null,
        signal: request.signal ?? null,
        // undefined: the agent's own (headersTimeoutMs); undici keeps it with a ~1 s resolution above 1 s.
        headersTimeout: request.headersTimeoutMs,
      });
      const body = response.body;
      return {
        status: response.statusCode,
        headers: new RecordHeaders(response.headers),
        text: () => body.text(),
        // A Node Readable: leaving its iteration early destroys it, which aborts the request
        // and closes the socket (a half-read response cannot be reused).
        body,
        abort: (error: Error) => body.destroy(error),
      };
    },
    close: async () => {
      await agent?.close();
    },
  };
}

/**
 * The pool, made by the first request: undici (CommonJS, ~4.7 MiB of heap) is required then, not
 * when the module is imported, so a gateway that has not called a provider yet does not hold it.
 * The require is synchronous and happens once; later requests only read the variable.
 */
function newAgent(options: UndiciHttpClientOptions): Agent {
  const undici = createRequire(import.meta.url)('undici') as typeof import('undici');
  return new undici.Agent({
    connections: options.connections ?? null,
    pipelining: 1,
    keepAliveTimeout: options.keepAliveTimeoutMs ?? 10_000,
    headersTimeout: options.headersTimeoutMs ?? 300_000,
    bodyTimeout: options.bodyTimeoutMs ?? 300_000,
    connect: { timeout: options.connectTimeoutMs ?? 10_000 },
  });
}

let shared: UndiciHttpClient | undefined;

/** The process-wide client every provider uses unless its settings pass one; created on first use. */
export function defaultHttpClient(): HttpClient {
  shared ??= createUndiciHttpClient();
  return shared;
}

class RecordHeaders implements HttpHeaders {
  constructor(private readonly raw: Dispatcher.ResponseData['headers']) {}

  get(name: string): string | null {
    const value = this.raw[name.toLowerCase()];
    if (value === undefined) return null;
    return Array.isArray(value) ? value.join(', ') : value;
  }
}

interface Target {
  origin: string;
  path: string;
}

// A provider calls a handful of URLs (one per model for Gemini); parse each once.
const targets = new Map<string, Target>();

function splitUrl(url: string): Target {
  let target = targets.get(url);
  if (target === undefined) {
    const parsed = new URL(url);
    target = { origin: parsed.origin, path: `${parsed.pathname}${parsed.search}` };
    if (targets.size >= 1024) targets.clear();
    targets.set(url, target);
  }
  return target;
}
