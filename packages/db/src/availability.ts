/**
 * PostgreSQL unreachable (refused, reset, blackholed, shutting down): thrown by every repository
 * call while the database cannot answer, so the apps can say 503 `database_unavailable` instead
 * of a 500, and at once instead of after a connect timeout per request.
 */
export class DbUnavailableError extends Error {
  readonly code = 'database_unavailable';

  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'DbUnavailableError';
  }
}

// postgres.js' own codes and Node's socket errors: the database never answered.
const transportCodes = new Set([
  'CONNECT_TIMEOUT',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
]);

/** SQLSTATE: connection exceptions (class 08), shutdown / cannot connect now (57P01-57P03), too many connections. */
const unavailableSqlState = /^(08...|57P0[123]|53300)$/;

/** Whether `error` (or one of its causes, under drizzle's wrapper) says the database is unreachable. */
export function isDbUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && typeof current === 'object' && current !== null; depth++) {
    if (current instanceof DbUnavailableError) return true;
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && (transportCodes.has(code) || unavailableSqlState.test(code))) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** Settings of the circuit in front of the repositories. */
export interface DbCircuitOptions {
  /** While open, calls fail at once; after this long one call probes, ms. Default 1000. */
  cooldownMs?: number;
  /**
   * A call without an answer after this long counts as the database unreachable (a partition
   * keeps connections open and silent; the driver has no query timeout of its own), ms.
   * Default 10 000: above the slowest report query.
   */
  callTimeoutMs?: number;
  now?: () => number;
}

/**
 * Opens on the first "unreachable" failure: every repository call then rejects at once with
 * DbUnavailableError for `cooldownMs`; the next call probes, and its success closes it. Query
 * errors (constraint, syntax, data) pass through untouched and never open it.
 */
export class DbCircuit {
  private readonly cooldownMs: number;
  private readonly callTimeoutMs: number;
  private readonly now: () => number;
  private openUntil = 0;
  private lastError: unknown;

  constructor(options: DbCircuitOptions = {}) {
    this.cooldownMs = options.cooldownMs ?? 1000;
    this.callTimeoutMs = options.callTimeoutMs ?? 10_000;
    this.now = options.now ?? Date.now;
  }

  get open(): boolean {
    return this.openUntil > this.now();
  }

  /** Refuses at once while open; otherwise runs `call` and learns from how it ends. */
  run<T>(call: () => T): T {
    if (this.open) return Promise.reject(this.refusal()) as T;
    const result = call();
    return (isThenable(result) ? this.track(result) : result) as T;
  }

  private refusal(): DbUnavailableError {
    return new DbUnavailableError('PostgreSQL is unavailable (circuit open); failing fast until it answers again.', { cause: this.lastError });
  }

  private async track<T>(pending: PromiseLike<T>): Promise<T> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const silent = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new DbUnavailableError(`PostgreSQL did not answer within ${this.callTimeoutMs} ms.`)), this.callTimeoutMs);
      timer.unref?.();
    });
    try {
      const value = await Promise.race([pending, silent]);
      this.openUntil = 0;
      return value;
    } catch (error) {
      if (!isDbUnavailable(error)) throw withoutQueryParams(error);
      this.lastError = withoutQueryParams(error);
      this.openUntil = this.now() + this.cooldownMs;
      throw error instanceof DbUnavailableError ? error : new DbUnavailableError('PostgreSQL is unavailable.', { cause: error });
    } finally {
      clearTimeout(timer);
    }
  }
}

/**
 * Drizzle's query errors carry the bound values in their message (`Failed query: ... params:
 * ...`), i.e. prompt text, memories, e-mail addresses, and the errors end up in warnings. Every
 * such error in the chain (a DbConflictError's cause too) keeps the query and loses the values;
 * in place, as the error is the caller's to rethrow.
 */
export function withoutQueryParams(error: unknown): unknown {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current instanceof Error; depth++) {
    const query = (current as { query?: unknown }).query;
    if (typeof query === 'string' && 'params' in current && current.message.startsWith('Failed query:')) {
      const before = current.message;
      current.message = `Failed query: ${query}\nparams: [redacted]`;
      if (current.stack) current.stack = current.stack.replace(before, current.message);
      (current as { params?: unknown }).params = '[redacted]';
    }
    current = current.cause;
  }
  return error;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/**
 * The repositories with every method behind `circuit` (a method answering synchronously is
 * only refused while the circuit is open).
 */
export function guardRepositories<R extends Record<string, object>>(repositories: R, circuit: DbCircuit): R {
  const guarded: Record<string, object> = {};
  for (const [name, repository] of Object.entries(repositories)) {
    const wrapped: Record<string, unknown> = {};
    for (const [method, value] of Object.entries(repository)) {
      if (typeof value !== 'function') {
        wrapped[method] = value;
        continue;
      }
      const fn = value as (...args: unknown[]) => unknown;
      wrapped[method] = (...args: unknown[]) => circuit.run(() => fn.apply(repository, args));
    }
    guarded[name] = wrapped;
  }
  return guarded as R;
}
