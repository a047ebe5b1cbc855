import { invalidRequest } from '@svc/core';
import type { MiddlewareHandler } from 'hono';

/** `%00` anywhere, in any case: a NUL id or query value reaches PostgreSQL as an error, not a miss. */
const encodedNul = /%00/i;

function decodable(part: string): boolean {
  try {
    decodeURIComponent(part);
    return true;
  } catch {
    return false;
  }
}

/**
 * Refuses, before any route runs, a path or query that holds an encoded NUL or a percent-escape
 * that is not UTF-8 (`%ED%A0%80`, a lone surrogate): 400 `invalid_request_error`, code
 * `invalid_url`. Ids and query values then need no check of their own against the stores.
 */
export function refuseMalformedUrl(): MiddlewareHandler {
  return async (c, next) => {
    const url = c.req.url;
    const start = url.indexOf('/', url.indexOf('//') + 2);
    const rest = start < 0 ? '' : url.slice(start);
    if (rest.includes('%')) {
      const hash = rest.indexOf('#');
      const target = hash < 0 ? rest : rest.slice(0, hash);
      if (encodedNul.test(target) || !target.split(/[/?&=]/).every(decodable)) {
        throw invalidRequest('The URL holds an encoded NUL character or a percent-escape that is not UTF-8.', null, 'invalid_url');
      }
    }
    await next();
  };
}
