import { STORED_JSON_RULES, readJson as readJsonBody } from '@svc/http-kit';
import type { Context } from 'hono';

/**
 * The control plane's JSON body: the shared reader with NUL refused in every string and key, since
 * every string here ends in PostgreSQL (text and JSONB cannot hold U+0000). 400 naming the field.
 */
export function readJson(c: Context, limit: number): Promise<unknown> {
  return readJsonBody(c, limit, STORED_JSON_RULES);
}
