import { ioredis } from './ioredis-module.js';

/** Thrown at once, without a round trip, while the circuit to Redis is open; and for a command that could not reach Redis. */
export class KvUnavailableError extends Error {
  readonly code = 'kv_unavailable';
  /** `open`: refused by the open circuit; false: this command itself failed to reach Redis (timeout, dropped connection). */
  constructor(cause?: unknown, open = true) {
    super(open ? 'Redis is unavailable (circuit open); failing fast until it answers again.' : 'Redis is unavailable (the command did not reach it or got no answer).', cause === undefined ? undefined : { cause });
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
      if (error instanceof ioredis().ReplyError) {
        this.closed();
        throw error;
      }
      // The kv's own argument checks (a non-positive TTL) never reached Redis: not an outage.
      if (error instanceof RangeError || error instanceof TypeError) throw error;
      this.failed(error);
      // An availability failure reads the same whether the circuit refused it or the command
      // failed on its own: callers (and the apps' 503 kv_unavailable) need one type to recognise.
      throw new KvUnavailableError(error, false);
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
