/**
 * Shared state for everything that must hold across gateway instances: rate-limit counters,
 * cache entries, breaker state, revocations, queues. The in-process implementation has the
 * same semantics as the Redis one; one conformance suite runs against both.
 *
 * TTLs are in milliseconds (positive; fractions round up). Values are strings (callers
 * serialise). Keys, streams and channels share one keyspace per backend, as in Redis: a
 * string operation on a stream key rejects with a `WRONGTYPE` error. Every method rejects
 * (never hangs) when the backend is unreachable or the Kv is closed, except `ping`.
 */
export interface Kv {
  get(key: string): Promise<string | null>;
  /**
   * Sets a value; with `ttlMs` it expires after that many milliseconds. Without `ttlMs` any
   * previous expiry is cleared (Redis `SET` semantics).
   */
  set(key: string, value: string, options?: { ttlMs?: number }): Promise<void>;
  /** Sets only when absent; true when this call set it. */
  setIfAbsent(key: string, value: string, options?: { ttlMs?: number }): Promise<boolean>;
  delete(key: string): Promise<boolean>;
  /**
   * Atomically reads and deletes a value (Redis `GETDEL`): of concurrent callers on any
   * instance, exactly one gets the value, the others null. For single-use tokens and challenges.
   */
  take(key: string): Promise<string | null>;
  /** Remaining time to live in ms, -1 without expiry, -2 when absent. */
  ttl(key: string): Promise<number>;
  /**
   * Atomically adds `by` (a safe integer, may be negative; default 1) to an integer counter
   * (created at 0) and returns the new value. With `ttlMs`, the expiry is set only when the
   * counter is created; an existing expiry is kept. Rejects when the value is not an integer.
   */
  increment(key: string, by?: number, options?: { ttlMs?: number }): Promise<number>;
  /**
   * Fixed-window admission: adds `cost` to the window counter only if the result stays within
   * `limit`; atomic across instances. Returns whether it was admitted, the count after the call
   * and ms until the window resets.
   *
   * The window starts with the first admitted consumption and lasts `windowMs`. `cost` and
   * `limit` are non-negative integers; `cost: 0` peeks without starting a window. When no
   * window is open, `count` is 0 and `resetMs` is `windowMs`. A `cost` above `limit` is never
   * admitted.
   */
  consumeWindow(key: string, cost: number, limit: number, windowMs: number): Promise<WindowResult>;
  /**
   * Applies several token-bucket and counter steps atomically, all or nothing, across
   * instances: when any step does not fit, nothing changes. One round trip (one script).
   * Keys must be distinct (RangeError otherwise); for a Redis cluster they must share a hash
   * slot (use a `{tag}`). Bucket time is the backend's clock (Redis `TIME`, or `now` of the
   * memory Kv), so every instance refills a bucket alike.
   */
  consumeAll(steps: readonly ConsumeStep[]): Promise<ConsumeAllResult>;
  /**
   * Appends to a stream/queue; returns the entry id, Redis-style `<ms>-<seq>`, strictly
   * increasing per stream. `fields` must not be empty.
   */
  append(stream: string, fields: Record<string, string>): Promise<string>;
  /**
   * Reads up to `count` entries with ids strictly after `afterId` ('0' for the beginning), in
   * id order. A missing stream or `count <= 0` reads nothing.
   */
  read(stream: string, afterId: string, count: number): Promise<StreamEntry[]>;
  /** Deletes stream entries by id (after they were processed). */
  ack(stream: string, ids: readonly string[]): Promise<void>;
  /** Entries in a stream (Redis `XLEN`); 0 for a missing stream. */
  streamLength(stream: string): Promise<number>;
  /**
   * Publish/subscribe for cross-instance invalidation (e.g. key revocation). Delivery is
   * at-most-once and asynchronous; subscribers of this same Kv receive their own messages.
   */
  publish(channel: string, message: string): Promise<void>;
  /**
   * Resolves once the subscription is active (a message published afterwards is delivered).
   * Returns an idempotent unsubscribe function.
   */
  subscribe(channel: string, onMessage: (message: string) => void): Promise<() => Promise<void>>;
  /** Liveness check used by `/ready`: resolves false (never throws, never hangs) when down or closed. */
  ping(): Promise<boolean>;
  /** Releases connections and timers; idempotent. Later calls reject (ping resolves false). */
  close(): Promise<void>;
}

export interface WindowResult {
  admitted: boolean;
  /** Window counter after this call (unchanged when not admitted). */
  count: number;
  /** Milliseconds until the window resets. */
  resetMs: number;
}

export interface StreamEntry {
  id: string;
  fields: Record<string, string>;
}

/** One step of {@link Kv.consumeAll}. */
export type ConsumeStep = BucketStep | CounterStep;

/**
 * A token bucket holding up to `capacity` tokens that refills continuously, from empty to
 * full in `refillMs` (a rate limit of `capacity` per `refillMs` without window edges). An
 * absent key is a full bucket; the key expires when the bucket is full again.
 */
export interface BucketStep {
  kind: 'bucket';
  key: string;
  /**
   * Tokens to take (a safe integer). A positive cost fits when the bucket holds at least that
   * many tokens; a negative one gives tokens back (never above `capacity`) and always fits;
   * 0 peeks.
   */
  cost: number;
  /** Positive integer. */
  capacity: number;
  /** Positive integer, ms. */
  refillMs: number;
  /** Take even when too few tokens are left: the bucket goes into debt, which later refills repay. */
  force?: boolean;
  /**
   * Tokens a positive cost must leave in the bucket (a non-negative safe integer; default 0):
   * background work takes only what keeps `reserve` tokens for interactive requests. A cost
   * that with its reserve exceeds the capacity never fits (`retryAfterMs` -1).
   */
  reserve?: number;
}

/** An integer counter (the one `increment` keeps) with an optional ceiling. */
export interface CounterStep {
  kind: 'counter';
  key: string;
  /** Added to the counter (a safe integer, may be negative). */
  cost: number;
  /**
   * A positive cost fits only when the counter stays at or below `limit`; a cost <= 0 always
   * fits. Omitted: no ceiling.
   */
  limit?: number;
  /** Expiry set only when this step creates the counter, ms (as `increment`). */
  ttlMs?: number;
  /**
   * When the counter does not exist: `create` it at 0 (default); `skip` the step without
   * blocking the others; or `refuse` the whole call (the caller seeds the counter and retries).
   */
  onMissing?: 'create' | 'skip' | 'refuse';
}

export interface ConsumeAllResult {
  /** Whether every step fitted and was applied; when false nothing changed. */
  admitted: boolean;
  /** One state per step, in the order of the steps: after the call when admitted, before it otherwise. */
  steps: ConsumeStepResult[];
}

export type ConsumeStepResult = BucketStepResult | CounterStepResult;

export interface BucketStepResult {
  kind: 'bucket';
  /** Whether this step fitted (forced and non-positive steps always do). */
  fits: boolean;
  /** Whole tokens in the bucket; negative while in debt. */
  remaining: number;
  /** Ms until the bucket is full again (0 when full). */
  resetMs: number;
  /** Ms until this step's cost would fit: 0 when it fits, -1 when it never can (cost > capacity). */
  retryAfterMs: number;
}

export interface CounterStepResult {
  kind: 'counter';
  /** Whether this step fitted (a skipped step fits; a refused missing counter does not). */
  fits: boolean;
  /** The counter (0 when missing). */
  value: number;
  /** The counter did not exist (and `onMissing` was `skip` or `refuse`, or it was created). */
  missing: boolean;
}
