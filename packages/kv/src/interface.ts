/**
 * Shared state for everything that must hold across gateway instances: rate-limit counters,
 * cache entries, breaker state, revocations, queues. The in-process implementation has the
 * same semantics as the Redis one; one conformance suite runs against both.
 *
 * TTLs are in milliseconds. Values are strings (callers serialise).
 */
export interface Kv {
  get(key: string): Promise<string | null>;
  /** Sets a value; with `ttlMs` it expires after that many milliseconds. */
  set(key: string, value: string, options?: { ttlMs?: number }): Promise<void>;
  /** Sets only when absent; true when this call set it. */
  setIfAbsent(key: string, value: string, options?: { ttlMs?: number }): Promise<boolean>;
  delete(key: string): Promise<boolean>;
  /** Remaining time to live in ms, -1 without expiry, -2 when absent. */
  ttl(key: string): Promise<number>;
  /**
   * Atomically adds `by` to an integer counter (created at 0) and returns the new value.
   * With `ttlMs`, the expiry is set when the counter is created.
   */
  increment(key: string, by?: number, options?: { ttlMs?: number }): Promise<number>;
  /**
   * Fixed-window admission: adds `cost` to the window counter only if the result stays within
   * `limit`; atomic across instances. Returns whether it was admitted, the count after the call
   * and ms until the window resets.
   */
  consumeWindow(key: string, cost: number, limit: number, windowMs: number): Promise<WindowResult>;
  /** Appends to a stream/queue; returns the entry id. */
  append(stream: string, fields: Record<string, string>): Promise<string>;
  /** Reads up to `count` entries after `afterId` ('0' for the beginning). */
  read(stream: string, afterId: string, count: number): Promise<StreamEntry[]>;
  /** Deletes stream entries by id (after they were processed). */
  ack(stream: string, ids: readonly string[]): Promise<void>;
  /** Publish/subscribe for cross-instance invalidation (e.g. key revocation). */
  publish(channel: string, message: string): Promise<void>;
  subscribe(channel: string, onMessage: (message: string) => void): Promise<() => Promise<void>>;
  /** Liveness check used by `/ready`. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export interface WindowResult {
  admitted: boolean;
  count: number;
  resetMs: number;
}

export interface StreamEntry {
  id: string;
  fields: Record<string, string>;
}
