import { createHash, timingSafeEqual } from 'node:crypto';
import { authenticationError, authorizationError } from '@svc/core';
import type { Context } from 'hono';
import { isForwarded } from './client-address.js';
import { nodeIncoming, readHeader } from './node-request.js';

const loopback = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * Who may read `/metrics` on the app ports (it shows spend per model and key activity):
 * - with `token` (SVC_METRICS_TOKEN): any caller presenting `Authorization: Bearer <token>`;
 * - without: callers on loopback only, and in-process calls (`app.request()`, no socket). A
 *   request that names a forwarding proxy (`Forwarded`, `X-Forwarded-For`, `X-Real-IP`) is not
 *   a loopback caller even on a loopback socket: a reverse proxy on the same host would otherwise
 *   open `/metrics` to the whole internet.
 * A scraper on another host uses the token or the separate METRICS_PORT listener.
 *
 * @throws GatewayError 401 without the right token, 403 from a remote caller when no token is set.
 */
export function checkMetricsAccess(c: Context, token: string | undefined): void {
  if (token !== undefined) {
    const presented = /^Bearer\s+(.+)$/i.exec(readHeader(c, 'authorization') ?? '')?.[1]?.trim();
    // Digests have one length, so the comparison takes the same time whatever was presented.
    if (presented !== undefined && timingSafeEqual(digest(presented), digest(token))) return;
    throw authenticationError('invalid_api_key', 'GET /metrics needs `Authorization: Bearer <SVC_METRICS_TOKEN>`.');
  }
  const incoming = nodeIncoming(c);
  if (!incoming) return;
  const address = incoming.socket.remoteAddress ?? '';
  if (loopback.test(address) && !isForwarded(c)) return;
  throw authorizationError(
    'forbidden',
    'GET /metrics answers only loopback callers (not through a proxy) unless SVC_METRICS_TOKEN is set (then with `Authorization: Bearer <token>`); or scrape the METRICS_PORT listener.',
  );
}
