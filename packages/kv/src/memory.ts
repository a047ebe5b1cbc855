import { NOT_INTEGER, WRONGTYPE, checkIncrement, checkSteps, checkStreamId, checkWindow, toTtlMs } from './arguments.js';
import type {
  BucketStep,
  ConsumeAllResult,
  ConsumeStep,
  ConsumeStepResult,
  CounterStep,
  Kv,
  StreamEntry,
  WindowResult,
} from './interface.js';
import { MemoryStream } from './memory-stream.js';
import { type BucketTake, bucketLevel, bucketResult, formatBucket, msUntilFull, takeFromBucket } from './token-bucket.js';

/** Settings of the in-process Kv. */
export interface MemoryKvOptions {
  /** Clock in epoch milliseconds; inject a fake one in tests. Default `Date.now`. */
  now?: () => number;
  /**
   * How often expired keys are removed, in ms (default 1000). Expiry is also checked on every
   * access, so this only bounds memory. The timer starts with the first key that gets a TTL and
   * is `unref()`ed, so it never keeps the process alive.
   */
  sweepIntervalMs?: number;
  /** Receives errors thrown by subscriber callbacks. Default: ignored. */
  onError?: (error: unknown) => void;
}

/**
 * In-process Kv with the semantics of the Redis one, for a single gateway instance and for
 * tests. Every operation runs synchronously inside its promise, so each one is atomic.
 */
export function createMemoryKv(options: MemoryKvOptions = {}): Kv {
  return new MemoryKv(options);
}

interface ValueEntry {
  readonly kind: 'value';
  /** Counters stay numbers so the per-request `consumeWindow` never parses or formats. */
  value: string | number;
  /** Epoch ms; `Infinity` without expiry. */
  expiresAt: number;
}

type Entry = ValueEntry | MemoryStream;

/** What `consumeAll` found for one step, before anything is written. */
type StepPlan =
  | { kind: 'bucket'; step: BucketStep; before: number; take: BucketTake }
  | { kind: 'counter'; step: CounterStep; entry: ValueEntry | undefined; value: number; fits: boolean };

interface Subscription {
  readonly onMessage: (message: string) => void;
}

const NO_EXPIRY = Number.POSITIVE_INFINITY;

class MemoryKv implements Kv {
  private readonly data = new Map<string, Entry>();
  private readonly channels = new Map<string, Set<Subscription>>();
  private readonly now: () => number;
  private readonly sweepIntervalMs: number;
  private readonly onError: (error: unknown) => void;
  private sweepTimer: ReturnType<typeof setInterval> | undefined;
  private closed = false;

  constructor(options: MemoryKvOptions) {
    this.now = options.now ?? Date.now;
    this.sweepIntervalMs = options.sweepIntervalMs ?? 1000;
    this.onError = options.onError ?? (() => {});
  }

  async get(key: string): Promise<string | null> {
    const entry = this.value(key);
    if (entry === undefined) return null;
    return typeof entry.value === 'string' ? entry.value : String(entry.value);
  }

  async set(key: string, value: string, options?: { ttlMs?: number }): Promise<void> {
    this.open();
    this.data.set(key, { kind: 'value', value, expiresAt: this.expiry(options?.ttlMs) });
  }

  async setIfAbsent(key: string, value: string, options?: { ttlMs?: number }): Promise<boolean> {
    const expiresAt = this.expiry(options?.ttlMs);
    if (this.live(key) !== undefined) return false;
    this.data.set(key, { kind: 'value', value, expiresAt });
    return true;
  }

  async delete(key: string): Promise<boolean> {
    if (this.live(key) === undefined) return false;
    return this.data.delete(key);
  }

  async take(key: string): Promise<string | null> {
    // No await between the read and the delete: the pair is atomic.
    const entry = this.value(key);
    if (entry === undefined) return null;
    this.data.delete(key);
    return typeof entry.value === 'string' ? entry.value : String(entry.value);
  }

  async ttl(key: string): Promise<number> {
    const entry = this.live(key);
    if (entry === undefined) return -2;
    if (entry.expiresAt === NO_EXPIRY) return -1;
    return Math.max(0, Math.ceil(entry.expiresAt - this.now()));
  }

  async increment(key: string, by = 1, options?: { ttlMs?: number }): Promise<number> {
    checkIncrement(by);
    const ttlMs = options?.ttlMs;
    const entry = this.value(key);
    if (entry === undefined) {
      this.data.set(key, { kind: 'value', value: by, expiresAt: this.expiry(ttlMs) });
      return by;
    }
    if (ttlMs !== undefined) toTtlMs(ttlMs);
    const next = toInteger(entry.value) + by;
    if (!Number.isSafeInteger(next)) throw new Error(NOT_INTEGER);
    entry.value = next;
    return next;
  }

  async consumeWindow(key: string, cost: number, limit: number, windowMs: number): Promise<WindowResult> {
    checkWindow(cost, limit, windowMs);
    const entry = this.value(key);
    // A counter without expiry cannot be a window (same rule as the Redis script): start anew.
    if (entry === undefined || entry.expiresAt === NO_EXPIRY) {
      if (cost === 0 || cost > limit) return { admitted: cost === 0, count: 0, resetMs: windowMs };
      this.data.set(key, { kind: 'value', value: cost, expiresAt: this.expiry(windowMs) });
      return { admitted: true, count: cost, resetMs: windowMs };
    }
    const count = toInteger(entry.value);
    const resetMs = Math.max(1, Math.ceil(entry.expiresAt - this.now()));
    if (count + cost > limit) return { admitted: false, count, resetMs };
    entry.value = count + cost;
    return { admitted: true, count: count + cost, resetMs };
  }

  async consumeAll(steps: readonly ConsumeStep[]): Promise<ConsumeAllResult> {
    checkSteps(steps);
    this.open();
    const nowUs = this.now() * 1000;
    // Read and decide every step first (a bad value throws before anything changed), then write.
    const plans = steps.map((step) => this.planStep(step, nowUs));
    const admitted = plans.every((plan) => (plan.kind === 'bucket' ? plan.take.fits : plan.fits));
    const results = plans.map((plan): ConsumeStepResult => {
      if (plan.kind === 'bucket') {
        if (admitted && plan.step.cost !== 0) this.storeBucket(plan.step, plan.take.after, nowUs);
        return bucketResult(plan.step, admitted ? plan.take.after : plan.before, plan.take);
      }
      const { step, entry, value, fits } = plan;
      const skipped = entry === undefined && step.onMissing === 'skip';
      if (!admitted || skipped) return { kind: 'counter', fits, value, missing: entry === undefined };
      if (entry === undefined) {
        this.data.set(step.key, { kind: 'value', value: step.cost, expiresAt: this.expiry(step.ttlMs) });
      } else {
        entry.value = value + step.cost;
      }
      return { kind: 'counter', fits, value: value + step.cost, missing: entry === undefined };
    });
    return { admitted, steps: results };
  }

  async append(stream: string, fields: Record<string, string>): Promise<string> {
    let entry = this.live(stream);
    if (entry === undefined) {
      entry = new MemoryStream();
      const id = entry.append(this.now(), fields);
      this.data.set(stream, entry);
      return id;
    }
    if (entry.kind !== 'stream') throw new Error(WRONGTYPE);
    return entry.append(this.now(), fields);
  }

  async read(stream: string, afterId: string, count: number): Promise<StreamEntry[]> {
    checkStreamId(afterId);
    const entry = this.live(stream);
    if (entry === undefined) return [];
    if (entry.kind !== 'stream') throw new Error(WRONGTYPE);
    return entry.read(afterId, count);
  }

  async ack(stream: string, ids: readonly string[]): Promise<void> {
    const entry = this.live(stream);
    if (entry === undefined) return;
    if (entry.kind !== 'stream') throw new Error(WRONGTYPE);
    entry.ack(ids);
  }

  async streamLength(stream: string): Promise<number> {
    const entry = this.live(stream);
    if (entry === undefined) return 0;
    if (entry.kind !== 'stream') throw new Error(WRONGTYPE);
    return entry.length;
  }

  async publish(channel: string, message: string): Promise<void> {
    this.open();
    const subscriptions = this.channels.get(channel);
    if (subscriptions === undefined) return;
    // Deliver asynchronously, like a message coming back over the network.
    const targets = [...subscriptions];
    queueMicrotask(() => {
      for (const subscription of targets) {
        if (!subscriptions.has(subscription)) continue;
        try {
          subscription.onMessage(message);
        } catch (error) {
          this.onError(error);
        }
      }
    });
  }

  async subscribe(channel: string, onMessage: (message: string) => void): Promise<() => Promise<void>> {
    this.open();
    const subscription: Subscription = { onMessage };
    let subscriptions = this.channels.get(channel);
    if (subscriptions === undefined) {
      subscriptions = new Set();
      this.channels.set(channel, subscriptions);
    }
    subscriptions.add(subscription);
    return async () => {
      const current = this.channels.get(channel);
      if (current === undefined || !current.delete(subscription)) return;
      if (current.size === 0) this.channels.delete(channel);
    };
  }

  async ping(): Promise<boolean> {
    return !this.closed;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.sweepTimer !== undefined) clearInterval(this.sweepTimer);
    this.sweepTimer = undefined;
    this.data.clear();
    this.channels.clear();
  }

  private open(): void {
    if (this.closed) throw new Error('Kv is closed');
  }

  /** The live (unexpired) entry for `key`, removing it when it has expired. */
  private live(key: string): Entry | undefined {
    this.open();
    const entry = this.data.get(key);
    if (entry === undefined || entry.expiresAt === NO_EXPIRY) return entry;
    if (entry.expiresAt > this.now()) return entry;
    this.data.delete(key);
    return undefined;
  }

  private value(key: string): ValueEntry | undefined {
    const entry = this.live(key);
    if (entry !== undefined && entry.kind !== 'value') throw new Error(WRONGTYPE);
    return entry;
  }

  private planStep(step: ConsumeStep, nowUs: number): StepPlan {
    const entry = this.value(step.key);
    if (step.kind === 'bucket') {
      const before = bucketLevel(entry === undefined ? null : String(entry.value), step, nowUs);
      return { kind: 'bucket', step, before, take: takeFromBucket(step, before) };
    }
    if (entry === undefined) {
      const onMissing = step.onMissing ?? 'create';
      const fits = onMissing === 'skip' || (onMissing === 'create' && withinLimit(0, step));
      return { kind: 'counter', step, entry, value: 0, fits };
    }
    const value = toInteger(entry.value);
    if (!Number.isSafeInteger(value + step.cost)) throw new Error(NOT_INTEGER);
    return { kind: 'counter', step, entry, value, fits: withinLimit(value, step) };
  }

  private storeBucket(step: BucketStep, level: number, nowUs: number): void {
    const ttlMs = msUntilFull(step, level);
    if (ttlMs === 0) this.data.delete(step.key);
    else this.data.set(step.key, { kind: 'value', value: formatBucket(level, nowUs), expiresAt: this.expiry(ttlMs) });
  }

  private expiry(ttlMs: number | undefined): number {
    if (ttlMs === undefined) return NO_EXPIRY;
    const expiresAt = this.now() + toTtlMs(ttlMs);
    if (this.sweepTimer === undefined && !this.closed) {
      this.sweepTimer = setInterval(() => this.sweep(), this.sweepIntervalMs);
      this.sweepTimer.unref();
    }
    return expiresAt;
  }

  private sweep(): void {
    const now = this.now();
    for (const [key, entry] of this.data) {
      if (entry.expiresAt <= now) this.data.delete(key);
    }
  }
}

function withinLimit(value: number, step: CounterStep): boolean {
  return step.cost <= 0 || step.limit === undefined || value + step.cost <= step.limit;
}

function toInteger(value: string | number): number {
  if (typeof value === 'number') return value;
  const parsed = /^-?\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(parsed)) throw new Error(NOT_INTEGER);
  return parsed;
}
