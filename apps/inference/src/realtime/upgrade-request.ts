import type { IncomingMessage } from 'node:http';
import { readCredential } from '@svc/auth';
import { type GatewayError, type Scope, invalidRequest, notFound } from '@svc/core';

/** The spec's realtime path. */
export const REALTIME_PATH = '/v1/voice/realtime';
/** Where the openai SDK connects with baseURL `{base}/v1` (`{baseURL}/realtime`). */
export const SDK_REALTIME_PATH = '/v1/realtime';
/** The scope a realtime session needs: checked on the upgrade, and declared by the described GET routes. */
export const REALTIME_SCOPE = 'inference:audio' satisfies Scope;
/** The paths that open a realtime session (each also a described GET route answering 426 without the upgrade). */
export const REALTIME_PATHS: ReadonlySet<string> = new Set([REALTIME_PATH, SDK_REALTIME_PATH]);

/** The browser client's way to pass the key (a WebSocket cannot set headers there). */
export const KEY_SUBPROTOCOL_PREFIX = 'openai-insecure-api-key.';
const BETA_SUBPROTOCOL = 'openai-beta.realtime-v1';
const WEBSOCKET_KEY = /^[+/0-9A-Za-z]{22}==$/;

/** What the gateway reads from a realtime upgrade request. */
export interface RealtimeUpgrade {
  /** The API key: `Authorization: Bearer`, `x-api-key`, or the `openai-insecure-api-key.<key>` subprotocol. */
  credential: string | undefined;
  /** `?model=` */
  model: string | undefined;
  /** `x-svc-conversation-id`, else `?conversation_id=`. */
  conversationId: string | undefined;
  /** `OpenAI-Beta: realtime=v1` or the `openai-beta.realtime-v1` subprotocol. */
  beta: boolean;
  intelligenceModeHeader: string | undefined;
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** The subprotocols the client offered, in its order. */
export function offeredProtocols(req: IncomingMessage): string[] {
  return (header(req, 'sec-websocket-protocol') ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
}

/**
 * Reads and checks a realtime upgrade. Throws 404 for a path that is not a realtime endpoint
 * and 400 for a request that is not a valid WebSocket opening handshake (checked before any
 * work, so a session is never opened upstream for a handshake that cannot complete).
 */
export function readRealtimeUpgrade(req: IncomingMessage): RealtimeUpgrade {
  const url = new URL(req.url ?? '/', 'http://gateway');
  if (!REALTIME_PATHS.has(url.pathname)) throw notFound(`No WebSocket endpoint at ${url.pathname}; realtime sessions open at /v1/voice/realtime.`);
  const handshake = handshakeError(req);
  if (handshake) throw handshake;
  const protocols = offeredProtocols(req);
  const fromProtocol = protocols.find((p) => p.startsWith(KEY_SUBPROTOCOL_PREFIX))?.slice(KEY_SUBPROTOCOL_PREFIX.length);
  const authorization = header(req, 'authorization');
  const credential = readCredential(authorization, header(req, 'x-api-key')) ?? (authorization ? undefined : fromProtocol || undefined);
  return {
    credential,
    model: url.searchParams.get('model') ?? undefined,
    conversationId: header(req, 'x-svc-conversation-id') ?? url.searchParams.get('conversation_id') ?? undefined,
    beta: /realtime=v1/i.test(header(req, 'openai-beta') ?? '') || protocols.includes(BETA_SUBPROTOCOL),
    intelligenceModeHeader: header(req, 'x-intelligence-mode'),
  };
}

function handshakeError(req: IncomingMessage): GatewayError | undefined {
  if (req.method !== 'GET') return invalidRequest('A realtime session opens with GET and a WebSocket upgrade.', null, 'websocket_upgrade_required');
  if (header(req, 'upgrade')?.toLowerCase() !== 'websocket') return invalidRequest("The upgrade must be to 'websocket'.", 'Upgrade', 'websocket_upgrade_required');
  if (!WEBSOCKET_KEY.test(header(req, 'sec-websocket-key')?.trim() ?? '')) return invalidRequest('Sec-WebSocket-Key is missing or malformed.', 'Sec-WebSocket-Key');
  const version = header(req, 'sec-websocket-version');
  if (version !== '13' && version !== '8') return invalidRequest('Sec-WebSocket-Version must be 13.', 'Sec-WebSocket-Version');
  return undefined;
}

/**
 * The subprotocol the gateway answers: `realtime` when offered (the openai SDK's browser
 * client offers it first), else the first one that does not carry a key; never the key.
 */
export function selectProtocol(protocols: ReadonlySet<string>): string | false {
  if (protocols.has('realtime')) return 'realtime';
  for (const protocol of protocols) if (!protocol.startsWith(KEY_SUBPROTOCOL_PREFIX)) return protocol;
  return false;
}
