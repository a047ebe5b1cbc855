import { type LookupAddress, type LookupAllOptions, type LookupOptions, lookup } from 'node:dns';
import { createRequire } from 'node:module';
import { nodeSignal } from '@svc/core';
import { type AddressPolicy, addressAllowed } from './address-policy.js';
import { checkMcpUrl, resolvedToPrivate } from './url-check.js';

/** `dns.lookup` with `all: true`: what resolves names (tests swap it). */
export type Resolver = (hostname: string, options: LookupAllOptions, callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) => void;

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `dns.lookup` for sockets that resolves every address of the name and refuses the connection
 * when any of them is not allowed: the address checked is the address dialled, so a name that
 * resolves to a public address at registration and to 127.0.0.1 later (DNS rebinding) is refused.
 */
export function guardedLookup(policy: AddressPolicy, resolve: Resolver = lookup) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    const all: LookupAllOptions = { ...options, all: true };
    resolve(hostname, all, (error, addresses) => {
      if (error) return callback(error, []);
      const refused = addresses.find((entry) => !addressAllowed(entry.address, policy));
      if (refused) return callback(Object.assign(resolvedToPrivate(hostname), { code: 'EMCPURLREFUSED' }), []);
      if (options.all) return callback(null, addresses);
      const first = addresses[0];
      if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), []);
      callback(null, first.address, first.family);
    });
  };
}

/** A response body longer than the cap: the stream errors, and the MCP call with it. */
export class McpResponseTooLargeError extends Error {
  readonly code = 'mcp_response_too_large';
  constructor(maxBytes: number) {
    super(`the MCP server's response exceeds ${maxBytes} bytes`);
    this.name = 'McpResponseTooLargeError';
  }
}

/** `body` passed through until `maxBytes` have gone by; past that the stream errors. */
function capped(body: ReadableStream<Uint8Array>, maxBytes: number): ReadableStream<Uint8Array> {
  let seen = 0;
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength;
        if (seen > maxBytes) controller.error(new McpResponseTooLargeError(maxBytes));
        else controller.enqueue(chunk);
      },
    }),
  );
}

export interface GuardedFetchSettings {
  policy: AddressPolicy;
  /** Largest response body accepted from an MCP server, bytes. */
  maxResponseBytes: number;
  /** What resolves host names; default `dns.lookup` (tests swap it). */
  resolve?: Resolver;
}

/** The fetch the MCP client transport uses: the URL policy on every request, no redirects, bodies capped. */
export type McpFetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

/**
 * A fetch for tenant-supplied MCP URLs: IP literals checked before dialling, host names checked
 * on every resolved address at connect time ({@link guardedLookup}), redirects refused (a
 * redirect could lead anywhere), and the response body capped at `maxResponseBytes`.
 */
export function guardedFetch(settings: GuardedFetchSettings): McpFetch {
  // undici is required here (the MCP gateway's first use), not when the module is imported.
  const { Agent, fetch: undiciFetch } = createRequire(import.meta.url)('undici') as typeof import('undici');
  const dispatcher = new Agent({ connect: { lookup: guardedLookup(settings.policy, settings.resolve) } });
  return async (url, init) => {
    checkMcpUrl(String(url), settings.policy);
    // undici's RequestInit and the DOM's differ only in types the MCP transport does not use.
    // undici's fetch takes only Node's own signals; a request's (`RequestAbort`) is given as one.
    const signal = init?.signal ? nodeSignal(init.signal) : undefined;
    const response = await undiciFetch(String(url), { ...(init as Parameters<typeof undiciFetch>[1]), signal, redirect: 'error', dispatcher });
    const declared = Number(response.headers.get('content-length') ?? Number.NaN);
    if (declared > settings.maxResponseBytes) {
      await response.body?.cancel();
      throw new McpResponseTooLargeError(settings.maxResponseBytes);
    }
    const body = response.body ? capped(response.body as ReadableStream<Uint8Array>, settings.maxResponseBytes) : null;
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers as unknown as Headers });
  };
}
