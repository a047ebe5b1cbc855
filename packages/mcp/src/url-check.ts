import { isIP } from 'node:net';
import { type AddressPolicy, addressAllowed } from './address-policy.js';

/** A registered MCP URL the gateway will not dial; the message says why, for the admin or the MCP client. */
export class McpUrlRefusedError extends Error {
  readonly code = 'mcp_url_refused';
  constructor(message: string) {
    super(message);
    this.name = 'McpUrlRefusedError';
  }
}

const allowPrivateHint = 'set SVC_MCP_ALLOW_PRIVATE_URLS=true to allow loopback, link-local and private addresses';

/** `[::1]` -> `::1`: URL keeps the brackets of an IPv6 host. */
function bareHost(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

/**
 * What can be refused without resolving DNS: a URL that is not http(s), carries a user or
 * password, or names a loopback, link-local or private IP literal or a `localhost` name. A host
 * name is checked again when the gateway connects, on every address it resolves to
 * ({@link guardedLookup}), so a name that later resolves to a private address is refused then.
 */
export function checkMcpUrl(url: string, policy: AddressPolicy): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new McpUrlRefusedError('is not an absolute URL');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new McpUrlRefusedError('must be an http:// or https:// URL');
  if (parsed.username !== '' || parsed.password !== '') throw new McpUrlRefusedError('must not carry a user name or password; send the credential as a header');
  if (policy.allowPrivate) return parsed;
  const host = bareHost(parsed.hostname).toLowerCase();
  if (isIP(host) !== 0 && !addressAllowed(host, policy)) {
    throw new McpUrlRefusedError(`names the non-public address ${host}; ${allowPrivateHint}`);
  }
  if (host === 'localhost' || host.endsWith('.localhost')) throw new McpUrlRefusedError(`names the loopback host ${host}; ${allowPrivateHint}`);
  return parsed;
}

/**
 * The refusal for a host name that resolved to a non-public address (DNS checked at connect
 * time). The address is not named: the message reaches the tenant, who must not learn how the
 * operator's internal names resolve.
 */
export function resolvedToPrivate(host: string): McpUrlRefusedError {
  return new McpUrlRefusedError(`${host} resolves to a non-public address; ${allowPrivateHint}`);
}
