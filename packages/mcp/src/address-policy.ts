import { BlockList, isIP } from 'node:net';

/**
 * Which addresses a registered MCP server may live at. Tenants supply these URLs, so by default
 * only public addresses are dialled: an organisation must not reach the gateway's own loopback,
 * its cloud metadata service (169.254.169.254) or the operator's private network through it.
 */
export interface AddressPolicy {
  /** Operator opt-in (`SVC_MCP_ALLOW_PRIVATE_URLS`): loopback, link-local and private addresses are dialled too. */
  allowPrivate: boolean;
}

/** Loopback, link-local, private, shared, unspecified, multicast and reserved ranges (IPv4 and IPv6). */
const nonPublic = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  nonPublic.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
] as const) {
  nonPublic.addSubnet(network, prefix, 'ipv6');
}

/** The IPv4 address an IPv4-mapped or -compatible IPv6 address carries (`::ffff:127.0.0.1`), else undefined. */
function embeddedIpv4(address: string): string | undefined {
  const match = /^::(?:ffff:)?(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (match) return match[1];
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (!hex) return undefined;
  const high = Number.parseInt(hex[1] ?? '0', 16);
  const low = Number.parseInt(hex[2] ?? '0', 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** True for an IP address outside every loopback, link-local, private and reserved range. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  if (family === 4) return !nonPublic.check(address, 'ipv4');
  const mapped = embeddedIpv4(address);
  if (mapped !== undefined) return !nonPublic.check(mapped, 'ipv4');
  return !nonPublic.check(address, 'ipv6');
}

/** True when `policy` lets the gateway dial `address`. */
export function addressAllowed(address: string, policy: AddressPolicy): boolean {
  return policy.allowPrivate || isPublicAddress(address);
}
