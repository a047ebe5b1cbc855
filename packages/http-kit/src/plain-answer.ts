import type { Context } from 'hono';
import { nodeIncoming } from './node-request.js';

/**
 * The header records of answers made by {@link plainAnswer} on @hono/node-server, for as long as
 * they are what the server will write: node-server's light Response keeps the record it was given
 * and writes it with `writeHead` as it is, while reading `Response.headers` first copies it into a
 * WHATWG `Headers` (validated, sorted when iterated, then turned back into a record). Middleware
 * that reads and adds headers through {@link responseHeader} and {@link setResponseHeader} keeps
 * an answer on that path: a dozen `Headers` operations less on every proxied request.
 */
const records = new WeakMap<Response, Record<string, string>>();

const upperCase = /[A-Z]/;

let plainBase: typeof Response | undefined;
let PlainResponse: typeof Response | undefined;

/** The `headers` getter `proto` has or inherits. */
function headersGetter(proto: object | null): (this: Response) => Headers {
  for (let at = proto; at !== null; at = Object.getPrototypeOf(at) as object | null) {
    const get = Object.getOwnPropertyDescriptor(at, 'headers')?.get;
    if (get) return get as (this: Response) => Headers;
  }
  throw new Error('Response has no headers getter.');
}

/** A subclass of the Response in use now (node-server installs its own): reading its headers ends the record's use. */
function plainResponseClass(): typeof Response {
  if (PlainResponse === undefined || plainBase !== globalThis.Response) {
    const Base = globalThis.Response;
    const inherited = headersGetter(Base.prototype);
    PlainResponse = class extends Base {};
    Object.defineProperty(PlainResponse.prototype, 'headers', {
      get(this: Response): Headers {
        records.delete(this);
        return inherited.call(this);
      },
    });
    plainBase = Base;
  }
  return PlainResponse;
}

/**
 * A string or streamed answer whose headers stay a plain record on Node (see {@link records});
 * header names must be lowercase (a record with another is answered the ordinary way). Elsewhere
 * (other runtimes, `app.request()` in tests) it is an ordinary Response.
 */
export function plainAnswer(c: Context, body: string | ReadableStream<Uint8Array>, status: number, headers: Record<string, string>): Response {
  if (!nodeIncoming(c)) return new Response(body, { status, headers });
  for (const name in headers) if (upperCase.test(name)) return new Response(body, { status, headers });
  const Plain = plainResponseClass();
  const response = new Plain(body, { status, headers });
  records.set(response, headers);
  return response;
}

/** A header of the context's answer (lowercase name), null when absent, read without copying a plain record. */
export function responseHeader(c: Context, name: string): string | null {
  const record = records.get(c.res);
  if (record === undefined) return c.res.headers.get(name);
  return record[name] ?? null;
}

/** Sets a header of the context's answer (lowercase name); `ifAbsent` keeps a value the answer already has. */
export function setResponseHeader(c: Context, name: string, value: string, ifAbsent = false): void {
  const record = records.get(c.res);
  if (record === undefined) {
    const headers = c.res.headers;
    if (!ifAbsent || !headers.has(name)) headers.set(name, value);
    return;
  }
  if (!ifAbsent || record[name] === undefined) record[name] = value;
}
