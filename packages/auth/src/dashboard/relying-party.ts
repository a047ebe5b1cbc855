import { isIP } from 'node:net';

/** Where the dashboard is served, as WebAuthn and the session cookie see it. */
export interface RelyingParty {
  /** `scheme://host[:port]`: the only origin accepted in WebAuthn client data and `Origin` headers. */
  origin: string;
  /** The WebAuthn RP id: the origin's host name. */
  rpId: string;
  /** Shown by authenticators next to the account. */
  rpName: string;
  /** Cookies carry `Secure` (and the `__Host-` prefix) on https origins. */
  secureCookies: boolean;
  /** `__Host-svc_session` on https, `svc_session` on http://localhost. */
  cookieName: string;
}

const isLocalhost = (host: string) => host === 'localhost' || host.endsWith('.localhost');

/**
 * Validates the dashboard origin (e.g. `SVC_DASHBOARD_ORIGIN`) and derives the RP id. Throws an
 * Error whose message says what to fix: WebAuthn needs a domain name (not an IP address) and a
 * secure context, which plain http is only on localhost.
 */
export function relyingPartyFromOrigin(value: string, rpName = 'svc gateway'): RelyingParty {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`'${value}' is not a URL; use e.g. https://dashboard.example.com or http://localhost:8081`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error('must start with https:// (or http:// on localhost)');
  if (url.username || url.password || url.search || url.hash || (url.pathname !== '/' && url.pathname !== '')) {
    throw new Error('must be an origin only (scheme, host, port), without path, query or credentials');
  }
  const host = url.hostname;
  if (isIP(host.replace(/^\[|\]$/g, '')) !== 0) throw new Error(`WebAuthn needs a domain name, not the IP address ${host}; use http://localhost:${url.port || 80} for local use`);
  if (url.protocol === 'http:' && !isLocalhost(host)) throw new Error('plain http is only allowed on localhost (browsers refuse passkeys elsewhere without https)');
  const secureCookies = url.protocol === 'https:';
  return { origin: url.origin, rpId: host, rpName, secureCookies, cookieName: secureCookies ? '__Host-svc_session' : 'svc_session' };
}
