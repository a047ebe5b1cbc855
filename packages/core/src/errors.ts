/**
 * The error table of the inference spec (§Errors). Every failure a client can see is a
 * GatewayError with a stable HTTP status, `type` and `code`; apps only encode it.
 */

/** Every `error.type` of the spec's error table (the published API description lists them). */
export const errorTypes = [
  'invalid_request_error',
  'authentication_error',
  'billing_error',
  'authorization_error',
  'not_found_error',
  'governance_error',
  'rate_limit_error',
  'internal_error',
  'provider_error',
  'upstream_error',
] as const;

export type ErrorType = (typeof errorTypes)[number];

export interface GatewayErrorOptions {
  status: number;
  type: ErrorType;
  code: string;
  message: string;
  param?: string | null;
  /** Extra response headers, e.g. `retry-after`. */
  headers?: Record<string, string>;
  /** Whether trying again (elsewhere or later) may succeed. */
  retryable?: boolean;
  cause?: unknown;
}

export class GatewayError extends Error {
  readonly status: number;
  readonly type: ErrorType;
  readonly code: string;
  readonly param: string | null;
  readonly headers: Record<string, string>;
  readonly retryable: boolean;

  constructor(options: GatewayErrorOptions) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'GatewayError';
    this.status = options.status;
    this.type = options.type;
    this.code = options.code;
    this.param = options.param ?? null;
    this.headers = options.headers ?? {};
    this.retryable = options.retryable ?? false;
  }

  /** The `error` object of the wire shape `{error: {...}}`. */
  toBody(): ErrorBody {
    return { message: this.message, type: this.type, code: this.code, param: this.param };
  }
}

export interface ErrorBody {
  message: string;
  type: string;
  code: string | null;
  param: string | null;
}

export function isGatewayError(value: unknown): value is GatewayError {
  return value instanceof GatewayError;
}

/** 400 `invalid_request_error`; `param` names the offending field (dotted path). */
export function invalidRequest(message: string, param: string | null = null, code = 'validation_error'): GatewayError {
  return new GatewayError({ status: 400, type: 'invalid_request_error', code, message, param });
}

export type AuthenticationCode = 'invalid_api_key' | 'expired_api_key' | 'revoked_api_key' | 'missing_api_key';

const authenticationMessages: Record<AuthenticationCode, string> = {
  missing_api_key: 'Missing API key. Send it as `Authorization: Bearer <API_KEY>`.',
  invalid_api_key: 'Invalid API key.',
  expired_api_key: 'This API key has expired.',
  revoked_api_key: 'This API key has been revoked.',
};

/** 401. A missing key is reported with code `invalid_api_key` as the spec lists no other. */
export function authenticationError(code: AuthenticationCode, message?: string): GatewayError {
  return new GatewayError({
    status: 401,
    type: 'authentication_error',
    code: code === 'missing_api_key' ? 'invalid_api_key' : code,
    message: message ?? authenticationMessages[code],
  });
}

export type AuthorizationCode = 'forbidden' | 'insufficient_scopes' | 'tenant_violation';

/**
 * 403 `authorization_error` / `model_not_allowed`: the key's or organisation's model access lists
 * (`model_access`) do not let it use `model`, named in the message; `param` is the field that
 * named it (`model`, `models[i]`, `routing_override.force_model`).
 */
export function modelNotAllowed(message: string, param: string | null = 'model'): GatewayError {
  return new GatewayError({ status: 403, type: 'authorization_error', code: 'model_not_allowed', message, param });
}

/** 403 `authorization_error`. */
export function authorizationError(code: AuthorizationCode, message: string): GatewayError {
  return new GatewayError({ status: 403, type: 'authorization_error', code, message });
}

/** 402 `billing_error`: token quota or monthly budget exceeded. */
export function billingError(message: string, code = 'budget_exceeded'): GatewayError {
  return new GatewayError({ status: 402, type: 'billing_error', code, message });
}

/** 404 `not_found_error`. */
export function notFound(message: string, param: string | null = null): GatewayError {
  return new GatewayError({ status: 404, type: 'not_found_error', code: 'resource_not_found', message, param });
}

/**
 * 404 `not_found_error` / `model_not_found`: a model the catalog does not have (or not of the
 * kind asked for), with OpenAI's status and code, so SDKs raise their not-found error. Every place
 * that resolves a model a client named throws this one.
 */
export function modelNotFound(message: string, param: string | null = 'model'): GatewayError {
  return new GatewayError({ status: 404, type: 'not_found_error', code: 'model_not_found', message, param });
}

/**
 * 404 `not_found_error` / `model_retired`: a model past its retirement date, named explicitly.
 * The message names the replacement when the catalog gives one.
 */
export function modelRetired(message: string, param: string | null = 'model'): GatewayError {
  return new GatewayError({ status: 404, type: 'not_found_error', code: 'model_retired', message, param });
}

/** 404 `governance_error` / `tool_not_registered`. */
export function toolNotRegistered(name: string): GatewayError {
  return new GatewayError({
    status: 404,
    type: 'governance_error',
    code: 'tool_not_registered',
    message: `Tool '${name}' is not registered for this organisation.`,
    param: 'tools',
  });
}

/** 422 `governance_error` / `tool_call_blocked`. */
export function toolCallBlocked(name: string): GatewayError {
  return new GatewayError({
    status: 422,
    type: 'governance_error',
    code: 'tool_call_blocked',
    message: `The model's call to tool '${name}' was blocked by policy.`,
  });
}

/** 429 `rate_limit_error` / `rate_limit_exceeded`, with `retry-after` in whole seconds. */
export function rateLimited(message: string, retryAfterSeconds: number, headers: Record<string, string> = {}): GatewayError {
  return new GatewayError({
    status: 429,
    type: 'rate_limit_error',
    code: 'rate_limit_exceeded',
    message,
    headers: { ...headers, 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) },
    retryable: true,
  });
}

/**
 * 409 `master_key_protected`: the bootstrap master key is the operator's (`SVC_MASTER_KEY`) and is
 * rotated there; revoking it through the API would lock the operator out at the next restart's
 * check while leaving the variable set.
 */
export function masterKeyProtected(): GatewayError {
  return new GatewayError({
    status: 409,
    type: 'invalid_request_error',
    code: 'master_key_protected',
    param: 'id',
    message: 'The master key is set by SVC_MASTER_KEY and cannot be revoked here: change the variable and restart to rotate it.',
  });
}

/** 413 for bodies over the documented size limit. */
export function payloadTooLarge(limitBytes: number): GatewayError {
  return new GatewayError({
    status: 413,
    type: 'invalid_request_error',
    code: 'payload_too_large',
    message: `Request body exceeds the limit of ${limitBytes} bytes.`,
  });
}

/** 413 for an uploaded file over the configured limit (`POST /v1/files`, SVC_FILES_MAX_BYTES). */
export function fileTooLarge(limitBytes: number): GatewayError {
  return new GatewayError({
    status: 413,
    type: 'invalid_request_error',
    code: 'file_too_large',
    param: 'file',
    message: `The file exceeds the limit of ${limitBytes} bytes for an upload.`,
  });
}

/** 500 `internal_error`. The message is generic: internals never leak to callers. */
export function internalError(cause?: unknown, message = 'Internal error.'): GatewayError {
  return new GatewayError({ status: 500, type: 'internal_error', code: 'internal_error', message, cause });
}

/**
 * 504 `upstream_error` / `request_timeout`: the request's deadline (its own `svc.timeout_ms` /
 * `x-svc-timeout-ms`, else the server's) passed before the answer was complete.
 */
export function requestTimeout(ms: number, cause?: unknown): GatewayError {
  return new GatewayError({
    status: 504,
    type: 'upstream_error',
    code: 'request_timeout',
    message: `The request did not complete within its timeout of ${ms} ms (svc.timeout_ms or x-svc-timeout-ms, at most the server's SVC_REQUEST_TIMEOUT_MS).`,
    retryable: true,
    cause,
  });
}

/**
 * 499 `invalid_request_error` / `client_closed_request` (nginx's "client closed request"): the
 * client left before its answer was ready. Nobody receives it; it is what the access log, the
 * request metrics and the trace record, so a client hanging up is never counted as the gateway's
 * or a provider's 5xx.
 */
export function clientClosedRequest(cause?: unknown): GatewayError {
  return new GatewayError({
    status: 499,
    type: 'invalid_request_error',
    code: 'client_closed_request',
    message: 'The client closed the connection before the answer was ready.',
    cause,
  });
}

/** 500 `provider_error`: no provider key is configured for what was asked. */
export function noProviderConfigured(message: string): GatewayError {
  return new GatewayError({ status: 500, type: 'provider_error', code: 'no_provider_configured', message });
}

/** 503 `governance_error` / `circuit_breaker_open`. */
export function circuitBreakerOpen(message: string, retryAfterSeconds?: number): GatewayError {
  return new GatewayError({
    status: 503,
    type: 'governance_error',
    code: 'circuit_breaker_open',
    message,
    headers: retryAfterSeconds === undefined ? {} : { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) },
    retryable: true,
  });
}

/** 503 `internal_error` with `retry-after: 1` for a shared dependency the gateway cannot reach. */
function dependencyUnavailable(code: 'database_unavailable' | 'kv_unavailable', message: string, cause: unknown): GatewayError {
  return new GatewayError({ status: 503, type: 'internal_error', code, message, headers: { 'retry-after': '1' }, retryable: true, cause });
}

/**
 * 503 `internal_error` / `database_unavailable` with `retry-after: 1`: PostgreSQL cannot be
 * reached; nothing was written, and trying again shortly may succeed.
 */
export function databaseUnavailable(cause?: unknown): GatewayError {
  return dependencyUnavailable('database_unavailable', 'The database is unavailable; try again shortly.', cause);
}

/**
 * 503 `internal_error` / `kv_unavailable` with `retry-after: 1`: Redis cannot be reached by an
 * operation that cannot fail open, such as reading the shared breaker states.
 */
export function kvUnavailable(cause?: unknown): GatewayError {
  return dependencyUnavailable('kv_unavailable', 'The shared state store (Redis) is unavailable; try again shortly.', cause);
}

/**
 * Coerces anything thrown into a GatewayError: @svc/db's DbUnavailableError and @svc/kv's
 * KvUnavailableError (recognised by their codes, core depending on nothing) become 503
 * `database_unavailable` / `kv_unavailable`, other unknown errors 500.
 */
export function toGatewayError(error: unknown): GatewayError {
  if (isGatewayError(error)) return error;
  const code = error instanceof Error ? (error as { code?: unknown }).code : undefined;
  if (code === 'database_unavailable') return databaseUnavailable(error);
  if (code === 'kv_unavailable') return kvUnavailable(error);
  return internalError(error);
}
