import { GatewayError } from './errors.js';

/**
 * What went wrong upstream, normalised across providers so the waterfall decides on kinds,
 * never on message strings.
 */
export type ProviderErrorKind =
  | 'rate_limit' // 429: try the next key of the pool, then the next candidate
  | 'billing' // 402 or quota exhausted: next key, then next candidate
  | 'overloaded' // 503/529: next candidate
  | 'server' // other 5xx: next candidate
  | 'timeout' // connect, first-byte or overall deadline
  | 'network' // connection refused/reset
  | 'context_length' // prompt too long for the model: a larger-context model may work
  | 'authentication' // the provider rejected our key: next key, operator must fix
  | 'invalid_request' // the caller's fault (bad tool schema, bad value): returned at once
  | 'not_found' // the upstream model does not exist
  | 'content_filter'; // refused by the provider's safety system

export interface ProviderErrorOptions {
  provider: string;
  kind: ProviderErrorKind;
  message: string;
  /** HTTP status the upstream answered, when there was one. */
  upstreamStatus?: number;
  /** The provider's own error code/type, for logs and the decision record. */
  upstreamCode?: string;
  /** Milliseconds the upstream asked us to wait (`retry-after`, `retry-after-ms`). */
  retryAfterMs?: number;
  param?: string | null;
  cause?: unknown;
}

const retryableKinds: ReadonlySet<ProviderErrorKind> = new Set([
  'rate_limit',
  'billing',
  'overloaded',
  'server',
  'timeout',
  'network',
  'context_length',
  'authentication',
  'not_found',
]);

function gatewayShape(kind: ProviderErrorKind): Pick<GatewayError, 'status' | 'type' | 'code'> {
  switch (kind) {
    case 'invalid_request':
    case 'context_length':
      return { status: 400, type: 'invalid_request_error', code: kind === 'context_length' ? 'context_length_exceeded' : 'provider_invalid_request' };
    case 'content_filter':
      return { status: 400, type: 'invalid_request_error', code: 'content_filter' };
    case 'rate_limit':
      // Spelling as published in the spec's error table.
      return { status: 429, type: 'rate_limit_error', code: 'upsteam_rate_limit' };
    case 'timeout':
      return { status: 504, type: 'upstream_error', code: 'provider_timeout' };
    default:
      return { status: 502, type: 'upstream_error', code: 'provider_error' };
  }
}

/** A normalised upstream failure. `retryable` says whether another key or candidate may succeed. */
export class ProviderError extends GatewayError {
  readonly provider: string;
  readonly kind: ProviderErrorKind;
  readonly upstreamStatus: number | undefined;
  readonly upstreamCode: string | undefined;
  readonly retryAfterMs: number | undefined;

  constructor(options: ProviderErrorOptions) {
    const shape = gatewayShape(options.kind);
    super({
      ...shape,
      message: options.message,
      param: options.param ?? null,
      retryable: retryableKinds.has(options.kind),
      cause: options.cause,
      headers:
        options.kind === 'rate_limit' && options.retryAfterMs !== undefined
          ? { 'retry-after': String(Math.max(1, Math.ceil(options.retryAfterMs / 1000))) }
          : {},
    });
    this.name = 'ProviderError';
    this.provider = options.provider;
    this.kind = options.kind;
    this.upstreamStatus = options.upstreamStatus;
    this.upstreamCode = options.upstreamCode;
    this.retryAfterMs = options.retryAfterMs;
  }
}

export function isProviderError(value: unknown): value is ProviderError {
  return value instanceof ProviderError;
}

/** The default kind for an upstream HTTP status when the body says nothing more specific. */
export function kindFromStatus(status: number): ProviderErrorKind {
  if (status === 400 || status === 422) return 'invalid_request';
  if (status === 401 || status === 403) return 'authentication';
  if (status === 402) return 'billing';
  if (status === 404) return 'not_found';
  if (status === 408 || status === 504) return 'timeout';
  if (status === 413) return 'context_length';
  if (status === 429) return 'rate_limit';
  if (status === 503 || status === 529) return 'overloaded';
  if (status >= 500) return 'server';
  return 'invalid_request';
}

/**
 * Parses `retry-after-ms` (milliseconds) or `retry-after` (seconds or an HTTP date) into
 * milliseconds; undefined when absent or unparseable.
 */
export function parseRetryAfter(headers: Headers, now = Date.now()): number | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms !== null) {
    const value = Number(ms);
    if (Number.isFinite(value) && value >= 0) return value;
  }
  const raw = headers.get('retry-after');
  if (raw === null) return undefined;
  const seconds = Number(raw);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
