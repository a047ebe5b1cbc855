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

/**
 * On Node, lets a streamed answer's headers leave in the same write as its first chunk:
 * @hono/node-server sends a stream's headers in a write of their own (`flushHeaders`) before it
 * reads the body, one more packet and system call ahead of the first token. Here that flush waits
 * until the work in hand (the promise jobs queued now) is done, and is skipped when the returned
 * function said by then that the first chunk is at hand: it has been written, with the headers.
 * A stream whose first chunk is not at hand still sends its headers at once. A no-op elsewhere.
 */
export function headersWithFirstChunk(c: Context): () => void {
  const outgoing = nodeOutgoing(c);
  if (!outgoing) return () => {};
  let chunkAtHand = false;
  const flushUnlessWritten = () => {
    if (!chunkAtHand && outgoing.writable) ServerResponse.prototype.flushHeaders.call(outgoing);
  };
  // process.nextTick from a promise job runs once the job queue is empty.
  outgoing.flushHeaders = () => process.nextTick(flushUnlessWritten);
  return () => {
    chunkAtHand = true;
  };
}
