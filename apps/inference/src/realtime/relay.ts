import type { RealtimeEndReason, RealtimeSession } from '@svc/pipeline';
import { REALTIME_TYPE_HEAD, mayObserveRealtimeFrame, readRealtimeEvent } from '@svc/protocol';
import type { Logger } from '@svc/telemetry';
import type { RawData, WebSocket } from 'ws';

/** Close codes the gateway sends (RFC 6455 §7.4 and the IANA registry). */
export const CLOSE = {
  normal: 1000,
  /** The gateway is shutting down. */
  goingAway: 1001,
  /** The session reached its time limit (`SVC_REQUEST_TIMEOUT_MS`). */
  policy: 1008,
  /** The gateway failed. */
  internal: 1011,
  /** The upstream failed or vanished mid-session (1014 Bad Gateway). */
  badGateway: 1014,
} as const;

export interface RelaySettings {
  /** Ends the session after this long, ms; 0: never. */
  deadlineMs: number;
  /** Pings the client this often; a client that missed a whole interval is gone. */
  heartbeatMs: number;
  logger: Logger;
}

/** Pause the sending side above this many buffered bytes on the receiving side; resume below the low mark. */
const HIGH_WATER = 4 * 1024 * 1024;
const LOW_WATER = 1024 * 1024;
/** How long a closing handshake may take before the socket is cut. */
const CLOSE_TIMEOUT_MS = 2_000;

/** A close code that may be sent in a close frame (1005/1006/1015 are only ever reported). */
function sendable(code: number): boolean {
  return (code >= 1000 && code <= 1014 && code !== 1004 && code !== 1005 && code !== 1006) || (code >= 3000 && code <= 4999);
}

/** Close reasons are at most 123 bytes. */
function reasonText(reason: Buffer | string): string {
  const text = typeof reason === 'string' ? reason : reason.toString('utf8');
  return Buffer.byteLength(text) <= 123 ? text : Buffer.from(text).subarray(0, 120).toString('utf8');
}

/** Sends `data` on and pauses `from` while `to` holds too much; `to`'s write callback resumes it. */
function forward(from: WebSocket, to: WebSocket, data: RawData, isBinary: boolean, paused: { on: boolean }): void {
  if (to.readyState !== to.OPEN) return;
  to.send(data, { binary: isBinary }, () => {
    if (paused.on && to.bufferedAmount <= LOW_WATER) {
      paused.on = false;
      from.resume();
    }
  });
  if (!paused.on && to.bufferedAmount > HIGH_WATER) {
    paused.on = true;
    from.pause();
  }
}

/** Closes a socket with a close frame, cut after a timeout when the peer never answers. */
function closeSocket(socket: WebSocket, code: number, text: string): void {
  if (socket.readyState === socket.CLOSED) return;
  if (socket.readyState === socket.CONNECTING) {
    socket.terminate();
    return;
  }
  if (socket.readyState === socket.OPEN) socket.close(code, reasonText(text));
  setTimeout(() => socket.terminate(), CLOSE_TIMEOUT_MS).unref();
}

/** Reads the usage and transcripts of an upstream text event into the session; other frames are not parsed. */
function meter(session: RealtimeSession, data: RawData, isBinary: boolean): void {
  if (isBinary || !Buffer.isBuffer(data) || !mayObserveRealtimeFrame(data.toString('utf8', 0, REALTIME_TYPE_HEAD), data.length)) return;
  const observed = readRealtimeEvent(data.toString('utf8'));
  if (observed?.kind === 'usage') session.addUsage(observed.usage);
  else if (observed?.kind === 'turn') session.addTurn(observed.turn);
}

/** Pings the client every `ms`; a client that answered no ping in a whole interval is cut. */
function startHeartbeat(client: WebSocket, ms: number, log: Logger): NodeJS.Timeout {
  let alive = true;
  client.on('pong', () => {
    alive = true;
  });
  const heartbeat = setInterval(() => {
    if (!alive) {
      log.info('realtime client stopped answering pings; cutting the session');
      client.terminate();
      return;
    }
    alive = false;
    if (client.readyState === client.OPEN) client.ping();
  }, ms);
  heartbeat.unref();
  return heartbeat;
}

/**
 * Relays one realtime session between the client's socket and the upstream's, both ways,
 * text and binary frames as they are, with backpressure, and meters it: upstream text events
 * that carry usage or transcripts are read (`@svc/protocol`), everything else passes untouched.
 *
 * Either side closing closes the other: the client's close is passed upstream; the upstream's
 * close code and reason reach the client as they are, and an upstream that vanishes (no close
 * frame) or errs closes the client with 1014. The deadline closes both with 1008; a client that
 * stops answering pings is cut. The session's bill is taken exactly once, whatever ends it.
 * Resolves when both sockets are closed.
 */
export function relay(client: WebSocket, session: RealtimeSession, settings: RelaySettings): { done: Promise<void>; close(reason: RealtimeEndReason, code: number, text: string): void } {
  const upstream = session.upstream;
  const log = settings.logger.child({ request_id: session.headers['x-svc-request-id'], model: session.model.id });
  const upstreamPaused = { on: false };
  const clientPaused = { on: false };

  const finish = (reason: RealtimeEndReason) => {
    if (session.ended) return;
    const bill = session.end(reason);
    log.info({ reason, minutes: bill.minutes, cost_usd: bill.costUsd, duration_ms: bill.durationMs }, 'realtime session ended');
  };

  const close = (reason: RealtimeEndReason, code: number, text: string) => {
    finish(reason);
    closeSocket(client, code, text);
    closeSocket(upstream, code === CLOSE.goingAway ? CLOSE.goingAway : CLOSE.normal, text);
  };

  client.on('message', (data, isBinary) => forward(client, upstream, data, isBinary, clientPaused));
  upstream.on('message', (data, isBinary) => {
    meter(session, data, isBinary);
    forward(upstream, client, data, isBinary, upstreamPaused);
  });
  const heartbeat = startHeartbeat(client, settings.heartbeatMs, log);
  // Like the request deadline, 0 means none.
  const deadline = settings.deadlineMs > 0 ? setTimeout(() => close('deadline', CLOSE.policy, 'session time limit reached'), settings.deadlineMs) : undefined;
  deadline?.unref();

  client.on('error', (error) => log.warn({ err: error }, 'realtime client socket error'));
  upstream.on('error', (error) => log.warn({ err: error }, 'realtime upstream socket error'));

  const clientClosed = new Promise<void>((resolve) => {
    client.once('close', (code, reason) => {
      finish('client');
      closeSocket(upstream, sendable(code) ? code : CLOSE.normal, reasonText(reason));
      resolve();
    });
  });
  const upstreamClosed = new Promise<void>((resolve) => {
    upstream.once('close', (code, reason) => {
      // 1005: a close frame without a code, a clean close; 1006/1015: the connection was lost.
      const lost = code === 1006 || code === 1015;
      finish(lost || code === CLOSE.internal || code === CLOSE.badGateway ? 'upstream_error' : 'upstream');
      if (lost) closeSocket(client, CLOSE.badGateway, 'upstream connection lost');
      else closeSocket(client, sendable(code) ? code : CLOSE.normal, reasonText(reason));
      resolve();
    });
  });

  // Listeners are on: let the upstream's first events (session.created) through.
  upstream.resume();
  const done = Promise.all([clientClosed, upstreamClosed]).then(() => {
    clearInterval(heartbeat);
    clearTimeout(deadline);
  });
  return { done, close };
}
