import { IncomingMessage, ServerResponse } from 'node:http';
import type { Context } from 'hono';

/**
 * Node fast paths. On @hono/node-server, touching `c.req.raw.signal`, `.body` or `.headers`
 * builds a full WHATWG Request (Headers object, web body stream): a measurable cost on every
 * request. These helpers read the Node objects the server already has, and fall back to the
 * standard API elsewhere (other runtimes, `app.request()` in tests).
 */

interface NodeBindings {
  incoming?: unknown;
  outgoing?: unknown;
}

/** The Node request, when running on @hono/node-server. */
export function nodeIncoming(c: Context): IncomingMessage | undefined {
  const incoming = (c.env as NodeBindings | undefined)?.incoming;
  return incoming instanceof IncomingMessage ? incoming : undefined;
}

function nodeOutgoing(c: Context): ServerResponse | undefined {
  const outgoing = (c.env as NodeBindings | undefined)?.outgoing;
  return outgoing instanceof ServerResponse ? outgoing : undefined;
}

/** A request header (lowercase name); repeated headers are joined with `, `. */
export function readHeader(c: Context, name: string): string | undefined {
  const incoming = nodeIncoming(c);
  if (!incoming) return c.req.header(name);
  const value = incoming.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** Calls `onGone` if the client disconnects before the response has been fully written. */
export function onClientGone(c: Context, onGone: () => void): void {
  const outgoing = nodeOutgoing(c);
  if (outgoing) {
    outgoing.once('close', () => {
      if (!outgoing.writableFinished) onGone();
    });
    return;
  }
  c.req.raw.signal.addEventListener('abort', onGone, { once: true });
}

/** Calls `onClosed` once the response is fully written or its connection closed; false when not on Node (nothing registered). */
export function onResponseClosed(c: Context, onClosed: () => void): boolean {
  const outgoing = nodeOutgoing(c);
  if (!outgoing) return false;
  outgoing.once('close', onClosed);
  return true;
}
