import type { BlockList } from 'node:net';
import { isIP } from 'node:net';
import type { Context } from 'hono';
import { nodeIncoming, readHeader } from './node-request.js';

/** `::ffff:192.0.2.1` (an IPv4 client on a dual-stack socket) as `192.0.2.1`. */
function plain(address: string): string {
  return address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
}

function trusts(proxies: BlockList, address: string): boolean {
  const family = isIP(address);
  return family !== 0 && proxies.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * The client's address, as failed authentication is throttled by: the socket's peer, or, when the
 * peer is one of `trustedProxies` (SVC_TRUSTED_PROXIES), the last address in `X-Forwarded-For`
 * that is not a trusted proxy (the one the first trusted hop saw). A forwarding header from anyone
 * else is ignored: a client cannot pick its own address. Undefined without a socket (in-process
 * `app.request()`).
 */
export function clientAddress(c: Context, trustedProxies?: BlockList): string | undefined {
  const peer = nodeIncoming(c)?.socket.remoteAddress;
  if (peer === undefined) return undefined;
  let address = plain(peer);
  if (!trustedProxies || !trusts(trustedProxies, address)) return address;
  const hops = (readHeader(c, 'x-forwarded-for') ?? '').split(',').map((hop) => plain(hop.trim())).filter((hop) => isIP(hop) !== 0);
  for (let i = hops.length - 1; i >= 0; i--) {
    address = hops[i]!;
    if (!trusts(trustedProxies, address)) break;
  }
  return address;
}

/** Whether the request names a forwarding proxy (`Forwarded`, `X-Forwarded-For`, `X-Real-IP`): then its socket peer is the proxy, not the client. */
export function isForwarded(c: Context): boolean {
  return readHeader(c, 'forwarded') !== undefined || readHeader(c, 'x-forwarded-for') !== undefined || readHeader(c, 'x-real-ip') !== undefined;
}
