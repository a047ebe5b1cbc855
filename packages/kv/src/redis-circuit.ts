import { ReplyError } from 'ioredis';

/** Thrown at once, without a round trip, while the circuit to Redis is open. */
export class KvUnavailableError extends Error {
  readonly code = 'kv_unavailable';
  constructor(cause?: unknown) {
    super('Redis is unavailable (circuit open); failing fast until it answers again.', cause === undefined ? undefined : { cause });
    this.name = 'KvUnavailableError';
  }
}

/** Settings of the circuit in front of the Redis command connection. */
export interface KvCircuitOptions {
  /** Consecutive availability failures (timeouts, refused or closed connections) that open it. Default 2. */
  threshold?: number;
  /** While open, commands fail at once; after this long one command probes, ms. Default 1000. */
  cooldownMs?: number;
  now?: () => number;
}

/**
 * A circuit breaker for the kv client: while Redis is down or hung, callers (which fail open or
 * closed as they choose) get their rejection at once instead of after a connect or command
 * timeout on every call. It opens after `threshold` consecutive availability failures, or at
 * once when the connection drops; it closes on the first success or when the connection is
 * ready again. Redis' own answers (script errors, WRONGTYPE) are not availability failures.
 */
export class KvCircuit {
  private readonly threshold: number;
  private readonly cooldownMs: number;
  private readonly now: () => number;
  private failures = 0;
  private openUntil = 0;
  private lastError: unknown;

  constructor(options: KvCircuitOptions = {}) {
    this.threshold = options.threshold ?? 2;
    this.cooldownMs = options.cooldownMs ?? 1000;
    this.now = options.now ?? Date.now;
  }

  /** True while commands are refused without a round trip. */
  get open(): boolean {
    return this.openUntil > this.now();
  }

  async run<T>(command: () => Promise<T>): Promise<T> {
    if (this.open) throw new KvUnavailableError(this.lastError);
    // Past the cooldown a single caller probes; the others keep failing fast until it answers.
    if (this.failures >= this.threshold) this.openUntil = this.now() + this.cooldownMs;
    try {
      const value = await command();
      this.closed();
      return value;
    } catch (error) {
      if (error instanceof ReplyError) this.closed();
      else this.failed(error);
      throw error;
    }
  }

  /** The connection dropped: no need to wait for timeouts to learn it. */
  tripped(error?: unknown): void {
    this.failures = Math.max(this.failures, this.threshold);
    this.lastError = error;
    this.openUntil = this.now() + this.cooldownMs;
  }

  /** The connection is ready (again), or a command succeeded. */
  closed(): void {
    this.failures = 0;
    this.openUntil = 0;
  }

  private failed(error: unknown): void {
    this.failures++;
    this.lastError = error;
    if (this.failures >= this.threshold) this.openUntil = this.now() + this.cooldownMs;
  }
}
