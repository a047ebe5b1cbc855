import type { Context } from 'hono';
import { readHeader } from '@svc/http-kit';

// A host name, IPv4 or bracketed IPv6, with an optional port: nothing that could reshape a URL.
const hostPattern = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

function first(value: string | undefined): string | undefined {
  const head = value?.split(',')[0]?.trim();
  return head === '' ? undefined : head;
}

/**
 * The base URL clients reach the gateway at (`{base_url}`, without `/v1`), for URLs the gateway
 * answers with: `configured` (SVC_PUBLIC_URL) when set; else the request's `X-Forwarded-Proto`
 * and `X-Forwarded-Host` when present and well-formed (a proxy in front), else its own scheme
 * and `Host`. Forwarded headers say whatever the last hop sent, so behind a proxy the operator
 * sets SVC_PUBLIC_URL rather than relying on them.
 */
export function publicBaseUrl(c: Context, configured: string | undefined): string {
  if (configured !== undefined) return configured;
  const own = new URL(c.req.url);
  const proto = first(readHeader(c, 'x-forwarded-proto'))?.toLowerCase();
  const scheme = proto === 'http' || proto === 'https' ? proto : own.protocol.slice(0, -1);
  const forwarded = first(readHeader(c, 'x-forwarded-host'));
  const host = [forwarded, readHeader(c, 'host')].find((candidate) => candidate !== undefined && hostPattern.test(candidate)) ?? own.host;
  return `${scheme}://${host}`;
}
