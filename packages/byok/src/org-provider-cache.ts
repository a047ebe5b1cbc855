import type { Provider } from '@svc/providers';
import { LRUCache } from 'lru-cache';

/** Providers by id (what the pipeline's `byok.forOrg` answers). */
export interface ProviderLookup {
  get(id: string): Provider | undefined;
}

/** The pub/sub part of @svc/kv that cross-instance invalidation needs. */
export interface InvalidationBus {
  publish(channel: string, message: string): Promise<void>;
  subscribe(channel: string, onMessage: (message: string) => void): Promise<() => Promise<void>>;
}

export interface OrgProviderCacheSettings {
  /** The organisation's own providers; undefined when it has none. */
  load(orgId: string): Promise<ProviderLookup | undefined>;
  /** Cross-instance invalidation. Without it, other instances see a change within `ttlMs`. */
  bus?: InvalidationBus;
  /** How long an organisation's providers (or its "none") are used without a store read. Default 60 s. */
  ttlMs?: number;
  /** Organisations kept, least recently used evicted first. Default 10,000. */
  maxOrgs?: number;
  /** After a failed load: how long the stale value (or "none") serves before the next try. Default 5 s. */
  retryAfterMs?: number;
  /** Told about failed loads (answered with the stale value, or with the platform's keys). */
  onError?: (error: unknown, orgId: string) => void;
  /** Clock in ms (tests). */
  now?: () => number;
}

/** A cached answer; `lookup` undefined is the organisation's cached "none". */
interface Entry {
  lookup: ProviderLookup | undefined;
}

/** An in-flight load; `current` turns false when an invalidation overtakes it, so its result is not cached. */
interface Load {
  promise: Promise<ProviderLookup | undefined>;
  current: boolean;
}

const channel = 'byok:changed';

/**
 * Each organisation's own providers, cached (bounded LRU + TTL). An organisation without BYOK
 * keys is cached as "none", so the request path does no store read for it; a cached answer is
 * returned synchronously. Concurrent misses share one load; an invalidation (here, or from another
 * instance through the bus) drops the entry and any load in flight. A failed load fails open:
 * the stale providers keep serving, or the platform's keys when there are none, retried after
 * `retryAfterMs`.
 */
export class OrgProviderCache {
  private readonly settings: OrgProviderCacheSettings;
  private readonly retryAfterMs: number;
  private readonly entries: LRUCache<string, Entry>;
  private readonly loading = new Map<string, Load>();
  private unsubscribe: (() => Promise<void>) | undefined;

  constructor(settings: OrgProviderCacheSettings) {
    this.settings = settings;
    this.retryAfterMs = settings.retryAfterMs ?? 5_000;
    const now = settings.now;
    this.entries = new LRUCache<string, Entry>({
      max: Math.max(1, settings.maxOrgs ?? 10_000),
      ttl: Math.max(1, settings.ttlMs ?? 60_000),
      // A stale entry stays readable (peek) as the answer when its reload fails.
      noDeleteOnStaleGet: true,
      ...(now ? { perf: { now }, ttlResolution: 0 } : {}),
    });
  }

  /** Subscribes to invalidations from other instances. Call once at start. */
  async start(): Promise<void> {
    if (!this.settings.bus || this.unsubscribe) return;
    this.unsubscribe = await this.settings.bus.subscribe(channel, (orgId) => this.forget(orgId));
  }

  async stop(): Promise<void> {
    const unsubscribe = this.unsubscribe;
    this.unsubscribe = undefined;
    await unsubscribe?.();
  }

  /** The organisation's own providers (undefined: none); synchronous when cached. Never rejects. */
  forOrg(orgId: string): ProviderLookup | undefined | Promise<ProviderLookup | undefined> {
    const entry = this.entries.get(orgId);
    if (entry) return entry.lookup;
    const inFlight = this.loading.get(orgId);
    if (inFlight) return inFlight.promise;
    const load: Load = { promise: Promise.resolve(undefined), current: true };
    load.promise = this.reload(orgId, load).finally(() => {
      if (this.loading.get(orgId) === load) this.loading.delete(orgId);
    });
    this.loading.set(orgId, load);
    return load.promise;
  }

  /** The organisation's keys changed: reloaded on next use, here at once and on every instance sharing the bus. */
  async invalidate(orgId: string): Promise<void> {
    this.forget(orgId);
    await this.settings.bus?.publish(channel, orgId);
  }

  private forget(orgId: string): void {
    this.entries.delete(orgId);
    const load = this.loading.get(orgId);
    if (load) load.current = false;
    this.loading.delete(orgId);
  }

  private async reload(orgId: string, load: Load): Promise<ProviderLookup | undefined> {
    try {
      const lookup = await this.settings.load(orgId);
      if (load.current) this.entries.set(orgId, { lookup });
      return lookup;
    } catch (error) {
      this.settings.onError?.(error, orgId);
      const lookup = this.entries.peek(orgId, { allowStale: true })?.lookup;
      if (load.current) this.entries.set(orgId, { lookup }, { ttl: this.retryAfterMs });
      return lookup;
    }
  }
}
