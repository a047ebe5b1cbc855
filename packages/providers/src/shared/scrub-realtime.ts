import type { RealtimeSocket } from '../provider-realtime.js';

/** Scrubs one text: every configured secret (and the call's own key) replaced. */
export type ScrubText = (text: string) => string;

/** A text frame with its secrets replaced; the same buffer when there was none (audio deltas are large). */
function scrubFrame(data: unknown, scrub: ScrubText): unknown {
  if (!Buffer.isBuffer(data)) return data;
  const text = data.toString('utf8');
  const clean = scrub(text);
  return clean === text ? data : Buffer.from(clean, 'utf8');
}

/**
 * Makes an open upstream realtime socket deliver only scrubbed text: every text message, the
 * close reason, and the message of an error event pass through `scrub` before any listener
 * (the relay to the client, the logs) sees them. Binary frames (audio) pass as they are.
 * The socket is changed in place (its `emit`), so every listener, present or later, is covered.
 */
export function scrubRealtimeSocket(socket: RealtimeSocket, scrub: ScrubText, scrubErrorEvent: (error: unknown) => unknown): RealtimeSocket {
  const emit = socket.emit.bind(socket) as (event: string | symbol, ...args: unknown[]) => boolean;
  const scrubbedEmit = (event: string | symbol, ...args: unknown[]): boolean => {
    if (event === 'message' && args[1] === false) args[0] = scrubFrame(args[0], scrub);
    else if (event === 'close' && Buffer.isBuffer(args[1])) args[1] = scrubFrame(args[1], scrub);
    else if (event === 'error') args[0] = scrubErrorEvent(args[0]);
    return emit(event, ...args);
  };
  Object.defineProperty(socket, 'emit', { value: scrubbedEmit, writable: true, configurable: true });
  return socket;
}
