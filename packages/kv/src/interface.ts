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
