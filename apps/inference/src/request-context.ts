import { type Aborter, type IntelligenceMode, RequestAbort, invalidRequest } from '@svc/core';
import { type Exchange, cacheDirectiveOf, resolveIntelligenceMode, resolveVoiceMode } from '@svc/pipeline';
import type { Context } from 'hono';
import { onClientGone, readHeader } from '@svc/http-kit';
import type { AppEnv } from './env.js';

/** What an endpoint adds to what every authenticated request's exchange holds. */
export interface ExchangeOptions {
  /** The body's `svc.intelligence_mode` (chat endpoints); the header still wins. */
  bodyMode?: IntelligenceMode | undefined;
  /** The body's `svc.timeout_ms` (chat endpoints); the header `x-svc-timeout-ms` still wins. */
  bodyTimeoutMs?: number | undefined;
  /** Voice endpoints: `proxy` escalates to `cache` (spec §Intelligence modes, Voice). */
  voice?: boolean;
  /** Request headers relayed upstream when present (e.g. `anthropic-beta`). */
  forward?: readonly string[];
  /** The controller aborted when the client goes away (a stream's cancel aborts it too). */
  abort?: Aborter;
  /** The body field holding the conversation when it is not `messages` (Responses' `input`, completions' `prompt`). */
  conversationParam?: string;
}

/**
 * The pipeline's exchange of an authenticated request, decided here once: its caller, id and
 * start, the intelligence mode (`X-Intelligence-Mode` > body > the organisation's default > full),
 * the end user, the answer cache's directive (`Cache-Control: no-cache` / `no-store`), the headers
 * to forward, and a signal aborted when the client goes away. Kept on
 * the context (`exchange`) for the error mapper and the mode header.
 *
 * @throws GatewayError 400 (param `X-Intelligence-Mode` / `x-svc-user` / `x-svc-timeout-ms`) for a bad header.
 */
export function exchangeOf(c: Context<AppEnv>, options: ExchangeOptions = {}): Exchange {
  const caller = c.get('caller');
  const header = readHeader(c, 'x-intelligence-mode');
  const orgDefault = caller.org.defaultIntelligenceMode;
  const mode = options.voice ? resolveVoiceMode(header, orgDefault) : resolveIntelligenceMode(header, options.bodyMode, orgDefault);
  const abort = options.abort ?? new RequestAbort();
  onClientGone(c, () => abort.abort());
  const forwardHeaders = options.forward ? forwardedHeaders(c, options.forward) : undefined;
  const cacheDirective = cacheDirectiveOf(readHeader(c, 'cache-control'));
  const timeoutMs = timeoutHeader(c) ?? options.bodyTimeoutMs;
  const exchange: Exchange = {
    caller,
    requestId: c.get('requestId'),
    startedAt: c.get('startedAt'),
    signal: abort.signal,
    abort,
    mode,
    ...endUserHeader(c),
    ...(cacheDirective ? { cacheDirective } : {}),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    access: c.get('access'),
    trace: c.get('trace'),
    ...(forwardHeaders ? { forwardHeaders } : {}),
    ...(options.conversationParam ? { conversationParam: options.conversationParam } : {}),
  };
  c.set('exchange', exchange);
  return exchange;
}

function forwardedHeaders(c: Context<AppEnv>, names: readonly string[]): Record<string, string> | undefined {
  let headers: Record<string, string> | undefined;
  for (const name of names) {
    const value = readHeader(c, name);
    if (value) headers = { ...headers, [name]: value };
  }
  return headers;
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

/** Longest request timeout a caller may ask for, ms (the body field's bound, u32). */
const MAX_TIMEOUT_MS = 4_294_967_295;

/** The caller's request timeout from `x-svc-timeout-ms` (a whole number of ms, 1 or more), if sent. */
function timeoutHeader(c: Context<AppEnv>): number | undefined {
  const value = readHeader(c, 'x-svc-timeout-ms')?.trim();
  if (value === undefined || value === '') return undefined;
  const ms = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!(ms >= 1 && ms <= MAX_TIMEOUT_MS)) throw invalidRequest(`Header x-svc-timeout-ms must be a whole number of milliseconds between 1 and ${MAX_TIMEOUT_MS}.`, 'x-svc-timeout-ms');
  return ms;
}
