import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { type Authenticator, requireScope } from '@svc/auth';
import { GatewayError, type IntelligenceMode, requestId as newRequestId, toGatewayError } from '@svc/core';
import { type RealtimeDeps, type RealtimeSession, openRealtimeSession, resolveVoiceMode } from '@svc/pipeline';
import type { Logger } from '@svc/telemetry';
import type { WebSocketServer } from 'ws';
import { refuseUpgrade } from './refuse-upgrade.js';
import { CLOSE, relay } from './relay.js';
import { REALTIME_SCOPE, readRealtimeUpgrade, selectProtocol } from './upgrade-request.js';

/** What `GET /v1/voice/realtime` needs; a Runtime and the environment provide it. */
export interface RealtimeGatewayDeps extends Omit<RealtimeDeps, 'onError'> {
  authenticator: Pick<Authenticator, 'authenticate'>;
  logger: Logger;
  /** Longest a session may last, ms (`SVC_REQUEST_TIMEOUT_MS`). */
  sessionTimeoutMs: number;
  /** Client ping interval, ms: a client that misses one whole interval is cut (and billed). Default 30 000. */
  heartbeatMs?: number;
  /** Largest message accepted from the client, bytes. Default 16 MiB (OpenAI's audio appends are at most 15 MiB). */
  maxClientPayload?: number;
}

/** Realtime sessions of one server: attach `handleUpgrade` to its `upgrade` event. */
export interface RealtimeGateway {
  /**
   * Handles one HTTP upgrade: authenticates it (Bearer key, `x-api-key`, or the browser's
   * `openai-insecure-api-key.<key>` subprotocol), requires `inference:audio`, admits the session
   * against the organisation's limits, opens the upstream, and only then completes the
   * client's handshake. Any refusal is the spec's HTTP error on the upgrade request.
   */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Sessions open now on this instance. */
  readonly open: number;
  /**
   * Graceful stop: refuses new sessions (503), lets open ones run for `graceMs`, then ends
   * them with 1001 (each billed), and resolves when every socket is closed.
   */
  shutdown(graceMs: number): Promise<void>;
}

/** 503 for a session asked for while the instance drains; another instance will take it. */
function shuttingDown(): GatewayError {
  return new GatewayError({ status: 503, type: 'internal_error', code: 'shutting_down', message: 'This gateway instance is shutting down; retry.', headers: { 'retry-after': '1' }, retryable: true });
}

interface Live {
  session: RealtimeSession;
  close(reason: 'shutdown', code: number, text: string): void;
  done: Promise<void>;
}

/**
 * The WebSocket server that completes accepted handshakes, adding each session's headers to its
 * 101. `ws` is loaded by the first upgrade (while its session opens): a gateway that never
 * relays a realtime session does not hold it.
 */
async function upgradeServer(deps: RealtimeGatewayDeps, headersFor: WeakMap<IncomingMessage, Record<string, string>>): Promise<WebSocketServer> {
  const { WebSocketServer } = await import('ws');
  const wss = new WebSocketServer({
    noServer: true,
    clientTracking: false,
    perMessageDeflate: false,
    maxPayload: deps.maxClientPayload ?? 16 * 1024 * 1024,
    handleProtocols: (protocols) => selectProtocol(protocols),
  });
  wss.on('headers', (headers, req) => {
    for (const [name, value] of Object.entries(headersFor.get(req) ?? {})) headers.push(`${name}: ${value}`);
  });
  return wss;
}

/** Completes the client's handshake and relays the session; a handshake ws refused still owes its bill. */
function accept(server: { wss: WebSocketServer; deps: RealtimeGatewayDeps; live: Set<Live> }, upgrade: { req: IncomingMessage; socket: Duplex; head: Buffer }, session: RealtimeSession): void {
  const { wss, deps, live } = server;
  let accepted = false;
  wss.handleUpgrade(upgrade.req, upgrade.socket, upgrade.head, (client) => {
    accepted = true;
    const { done, close } = relay(client, session, {
      deadlineMs: deps.sessionTimeoutMs,
      heartbeatMs: deps.heartbeatMs ?? 30_000,
      logger: deps.logger,
    });
    const entry: Live = { session, close, done };
    live.add(entry);
    void done.then(() => live.delete(entry));
  });
  // ws completes (or aborts with 400) the handshake synchronously.
  if (!accepted) {
    session.end('error');
    session.upstream.terminate();
  }
}

/** Lets open sessions run for `graceMs`, then ends the rest with 1001 (each billed); resolves when all are closed. */
async function drain(live: Set<Live>, graceMs: number): Promise<void> {
  const allDone = () => Promise.all([...live].map((entry) => entry.done));
  let timer: NodeJS.Timeout | undefined;
  const graceOver = new Promise<'grace'>((resolve) => {
    timer = setTimeout(() => resolve('grace'), graceMs);
  });
  const outcome = await Promise.race([allDone().then(() => 'done' as const), graceOver]);
  clearTimeout(timer);
  if (outcome === 'grace') {
    for (const entry of live) entry.close('shutdown', CLOSE.goingAway, 'server shutting down');
    await allDone();
  }
}

/** What one gateway holds across its sessions. */
interface GatewayState {
  deps: RealtimeGatewayDeps;
  stageDeps: RealtimeDeps;
  /** Made by the first upgrade (`upgrades`). */
  wss: Promise<WebSocketServer> | undefined;
  live: Set<Live>;
  headersFor: WeakMap<IncomingMessage, Record<string, string>>;
  stopping: boolean;
}

interface Upgrade {
  req: IncomingMessage;
  socket: Duplex;
  head: Buffer;
}

/** What the handshake learnt before it failed: the refusal still says the voice mode. */
interface Seen {
  modeHeader?: string | null;
  orgDefault?: IntelligenceMode | null;
}

/** The upgrade server, started by the first upgrade and kept. */
function upgrades(state: GatewayState): Promise<WebSocketServer> {
  state.wss ??= upgradeServer(state.deps, state.headersFor);
  return state.wss;
}

/** Authenticates the upgrade, requires the realtime scope, admits the session and opens the upstream. */
async function openSession(state: GatewayState, req: IncomingMessage, context: { requestId: string; signal: AbortSignal; seen: Seen }): Promise<RealtimeSession> {
  if (state.stopping) throw shuttingDown();
  const upgrade = readRealtimeUpgrade(req);
  context.seen.modeHeader = upgrade.intelligenceModeHeader;
  const caller = await state.deps.authenticator.authenticate(upgrade.credential, () => req.socket.remoteAddress);
  context.seen.orgDefault = caller.org.defaultIntelligenceMode;
  requireScope(caller, REALTIME_SCOPE);
  return openRealtimeSession(
    state.stageDeps,
    {
      beta: upgrade.beta,
      ...(upgrade.model === undefined ? {} : { model: upgrade.model }),
      ...(upgrade.conversationId === undefined ? {} : { conversationId: upgrade.conversationId }),
    },
    { caller, requestId: context.requestId, startedAt: performance.now(), signal: context.signal, mode: resolveVoiceMode(upgrade.intelligenceModeHeader, caller.org.defaultIntelligenceMode) },
  );
}

/** The session, and the upgrade server (loading meanwhile, the first time); a server that cannot load ends the session. */
async function openWithServer(state: GatewayState, req: IncomingMessage, context: { requestId: string; signal: AbortSignal; seen: Seen }): Promise<{ session: RealtimeSession; wss: WebSocketServer }> {
  const server = upgrades(state);
  // Handled now should the session fail first; awaited below once it is open.
  server.catch(() => {});
  const session = await openSession(state, req, context);
  try {
    return { session, wss: await server };
  } catch (error) {
    session.end('error');
    session.upstream.terminate();
    throw error;
  }
}

/** Answers a refused upgrade with the spec's HTTP error (logged when it is the gateway's own failure). */
async function refuse(deps: RealtimeGatewayDeps, socket: Duplex, thrown: unknown, context: { requestId: string; seen: Seen }): Promise<void> {
  const error = toGatewayError(thrown);
  if (error.code === 'internal_error') deps.logger.error({ err: thrown, request_id: context.requestId }, 'realtime upgrade failed');
  deps.metrics.requests.inc({ route: '/v1/voice/realtime', status: String(error.status), model: '', provider: '', cache: '' });
  await refuseUpgrade(socket, error, context.requestId, refusalModeHeader(context.seen.modeHeader, context.seen.orgDefault));
}

/** One upgrade from request to relay: refused with an HTTP error, or accepted and relayed. */
async function handleOne(state: GatewayState, { req, socket, head }: Upgrade): Promise<void> {
  const { deps } = state;
  const requestId = newRequestId();
  const gone = new AbortController();
  const onGone = () => gone.abort(new Error('client went away during the handshake'));
  socket.once('close', onGone);
  // Node's HTTP server drops its error handler from an upgraded socket: a reset while the
  // session is being opened must not be an uncaught error ('close' follows and aborts it).
  const onSocketError = (error: Error) => deps.logger.debug({ err: error, request_id: requestId }, 'realtime client socket error during the handshake');
  socket.on('error', onSocketError);
  const seen: Seen = {};
  let session: RealtimeSession;
  let wss: WebSocketServer;
  try {
    ({ session, wss } = await openWithServer(state, req, { requestId, signal: gone.signal, seen }));
  } catch (thrown) {
    socket.off('close', onGone);
    await refuse(deps, socket, thrown, { requestId, seen });
    return;
  }
  socket.off('close', onGone);
  deps.metrics.requests.inc({ route: '/v1/voice/realtime', status: '101', model: session.model.id, provider: session.model.provider, cache: '' });
  if (gone.signal.aborted || !socket.writable) {
    // The client left while the upstream was opening: the upstream minute was opened, bill it.
    session.end('client');
    session.upstream.terminate();
    return;
  }
  state.headersFor.set(req, session.headers);
  accept({ wss, deps, live: state.live }, { req, socket, head }, session);
  socket.off('error', onSocketError);
}

/** The realtime endpoint: `GET /v1/voice/realtime` (and `/v1/realtime`, where the openai SDK connects). */
export function createRealtimeGateway(deps: RealtimeGatewayDeps): RealtimeGateway {
  const headersFor = new WeakMap<IncomingMessage, Record<string, string>>();
  const onError = (error: unknown) => deps.logger.warn({ err: error }, 'realtime session: background write failed');
  const state: GatewayState = { deps, stageDeps: { ...deps, onError }, wss: undefined, live: new Set<Live>(), headersFor, stopping: false };
  /** Handshakes between the upgrade request and the relay (authenticating, connecting upstream). */
  const opening = new Set<Promise<void>>();

  return {
    handleUpgrade(req, socket, head) {
      const pending = handleOne(state, { req, socket, head }).catch((error: unknown) => {
        deps.logger.error({ err: error }, 'realtime upgrade failed');
        socket.destroy();
      });
      opening.add(pending);
      void pending.finally(() => opening.delete(pending));
    },
    get open() {
      return state.live.size;
    },
    async shutdown(graceMs) {
      state.stopping = true;
      await Promise.all(opening);
      await drain(state.live, graceMs);
      await state.wss?.then((wss) => wss.close(), () => {});
    },
  };
}

/**
 * A refused session still says the voice mode it resolved to (spec: `X-Svc-Intelligence-Mode` on
 * every voice response; the organisation's default once authenticated), except when the mode
 * header itself was the error.
 */
function refusalModeHeader(header: string | null | undefined, orgDefault: IntelligenceMode | null | undefined): Record<string, string> | undefined {
  try {
    return { 'x-svc-intelligence-mode': resolveVoiceMode(header, orgDefault) };
  } catch {
    return undefined;
  }
}
