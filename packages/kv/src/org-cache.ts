import { LRUCache } from 'lru-cache';
import type { Kv } from './interface.js';

/** The pub/sub part of a {@link Kv} that cross-instance invalidation needs. */
export type InvalidationBus = Pick<Kv, 'publish' | 'subscribe'>;

export interface OrgCacheSettings<T> {
  /** Reads one entry from its store (an organisation's record, a key's verification, ...). */
  load(key: string): Promise<T>;
  /** Kv channel the invalidations travel on, one per cache (`byok:changed`). */
  channel: string;
  /** Cross-instance invalidation. Without it, other instances see a change within the entry's lifetime. */
  bus?: InvalidationBus;
  /** How long a loaded value is used without a store read, ms. Default 30 s. */
  ttlMs?: number;
  /** A value's own lifetime, ms, when it differs from `ttlMs` (a refusal cached briefly). */
  ttlOf?: (value: T) => number | undefined;
  /** Names besides its key that invalidate a value (`org:<id>` drops every key of an organisation). */
  tagsOf?: (value: T) => readonly string[];
  /** Entries kept (organisations, or whatever the cache is keyed by), least recently used out first. Default 10,000. */
  maxOrgs?: number;
  /**
   * After a failed load, how long the stale value (or `fallback`) answers before the next try, ms.
   * Omitted: a failed load rejects and nothing stale is served.
   */
  retryAfterMs?: number;
  /** The answer to a failed load when nothing stale is cached (with `retryAfterMs`); omitted: it rejects. */
  fallback?: (key: string) => T;
  /** Told about failed loads that were answered with a stale value or the fallback. */
  onError?: (error: unknown, key: string) => void;
  /** Clock in ms (tests). */
  now?: () => number;
}

/**
 * A per-organisation cache: bounded LRU with a lifetime per entry, loads shared between
 * concurrent misses, and invalidation here and, through the kv bus, on every instance.
 */
export interface OrgCache<T> {
  /** The cached value, synchronously while fresh; otherwise the (shared) load. */
  get(key: string): T | Promise<T>;
  /** Drops `name` (a key or a tag) and any load in flight that it could concern, here and on every instance sharing the bus. */
  invalidate(name: string): Promise<void>;
  /** Subscribes to invalidations from other instances. Call once at start. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

interface Entry<T> {
  value: T;
  expiresAt: number;
  tags: readonly string[];
}

/** `current` turns false when an invalidation overtakes a load in flight, so its result is not cached. */
interface LoadState {
  current: boolean;
}

interface Load<T> {
  promise: Promise<T>;
  state: LoadState;
}

const noTags: readonly string[] = [];

/** Creates an {@link OrgCache} over `settings.load`. */
export function createOrgCache<T>(settings: OrgCacheSettings<T>): OrgCache<T> {
  return new LruOrgCache(settings);
}

class LruOrgCache<T> implements OrgCache<T> {
  private readonly entries: LRUCache<string, Entry<T>>;
  private readonly loading = new Map<string, Load<T>>();
  private readonly now: () => number;
  private unsubscribe: (() => Promise<void>) | undefined;

  constructor(private readonly settings: OrgCacheSettings<T>) {
    this.now = settings.now ?? Date.now;
    this.entries = new LRUCache<string, Entry<T>>({ max: Math.max(1, settings.maxOrgs ?? 10_000) });
  }

  get(key: string): T | Promise<T> {
    const entry = this.entries.get(key);
    if (entry && entry.expiresAt > this.now()) return entry.value;
    const inFlight = this.loading.get(key);
    if (inFlight) return inFlight.promise;
    const state: LoadState = { current: true };
    const promise = this.reload(key, state).finally(() => {
      if (this.loading.get(key)?.state === state) this.loading.delete(key);
    });
    this.loading.set(key, { promise, state });
    return promise;
  }

  async invalidate(name: string): Promise<void> {
    this.forget(name);
    await this.settings.bus?.publish(this.settings.channel, name);
  }

  async start(): Promise<void> {
    if (!this.settings.bus || this.unsubscribe) return;
    this.unsubscribe = await this.settings.bus.subscribe(this.settings.channel, (name) => this.forget(name));
  }

  async stop(): Promise<void> {
    const unsubscribe = this.unsubscribe;
    this.unsubscribe = undefined;
    await unsubscribe?.();
  }

  private forget(name: string): void {
    this.entries.delete(name);
    // A load in flight for another key may return a value tagged `name`: none of them is cached.
    const overtaken = this.settings.tagsOf ? [...this.loading.keys()] : [name];
    for (const key of overtaken) {
      const load = this.loading.get(key);
      if (load) load.state.current = false;
      this.loading.delete(key);
    }
    if (!this.settings.tagsOf) return;
    const tagged = [...this.entries.entries()].filter(([, entry]) => entry.tags.includes(name)).map(([key]) => key);
    for (const key of tagged) this.entries.delete(key);
  }

  private async reload(key: string, state: LoadState): Promise<T> {
    let value: T;
    try {
      value = await this.settings.load(key);
    } catch (error) {
      return this.answerFailure(key, state, error);
    }
    if (state.current) this.store(key, value, this.settings.ttlOf?.(value) ?? this.settings.ttlMs ?? 30_000);
    return value;
  }

  private answerFailure(key: string, state: LoadState, error: unknown): T {
    const { retryAfterMs, fallback } = this.settings;
    if (retryAfterMs === undefined) throw error;
    const stale = state.current ? this.entries.peek(key) : undefined;
    let value: T;
    if (stale) value = stale.value;
    else if (fallback) value = fallback(key);
    else throw error;
    this.settings.onError?.(error, key);
    if (state.current) this.store(key, value, retryAfterMs);
    return value;
  }

  private store(key: string, value: T, lifetimeMs: number): void {
    this.entries.set(key, { value, expiresAt: this.now() + lifetimeMs, tags: this.settings.tagsOf?.(value) ?? noTags });
  }
}
