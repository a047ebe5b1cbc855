import { invalidRequest } from '@svc/core';
import type { RequestContext } from '@svc/pipeline';
import type { Context } from 'hono';
import { onClientGone, readHeader } from '@svc/http-kit';
import type { AppEnv } from './env.js';

/**
 * The pipeline's context of an authenticated request: its caller, id and start, the
 * `X-Intelligence-Mode` header, and a signal aborted when the client goes away.
 */
export function requestContext(c: Context<AppEnv>): RequestContext {
  const abort = new AbortController();
  onClientGone(c, () => abort.abort());
  return {
    caller: c.get('caller'),
    requestId: c.get('requestId'),
    startedAt: c.get('startedAt'),
    signal: abort.signal,
    intelligenceModeHeader: readHeader(c, 'x-intelligence-mode') ?? null,
    ...endUserHeader(c),
    access: c.get('access'),
    trace: c.get('trace'),
  };
}

/** Longest end-user id accepted (OpenAI's `user` has no documented bound; this keeps keys and logs small). */
const MAX_END_USER_CHARS = 256;

/**
 * The end user named by the `x-svc-user` header, which wins over the body's `user` (or Anthropic's
 * `metadata.user_id`) on every endpoint; `{}` when absent. Scopes memory and what is cached with it.
 */
export function endUserHeader(c: Context<AppEnv>): { endUser?: string } {
  const value = readHeader(c, 'x-svc-user')?.trim();
  if (!value) return {};
  if (value.length > MAX_END_USER_CHARS) throw invalidRequest(`Header x-svc-user must be at most ${MAX_END_USER_CHARS} characters.`, 'x-svc-user');
  return { endUser: value };
}
