import { type OrgCache, type OrgCacheSettings, createOrgCache } from '@svc/kv';
import type { ProviderLookup } from '@svc/providers';

/** Providers by id (what the pipeline's `byok.forOrg` answers). */
export type { ProviderLookup };

/**
 * `load` answers the organisation's own providers (undefined: none); `ttlMs` defaults to 60 s,
 * `retryAfterMs` (how long the stale value, or "none", serves after a failed load) to 5 s.
 */
export type OrgProviderCacheSettings = Pick<OrgCacheSettings<ProviderLookup | undefined>, 'load' | 'bus' | 'ttlMs' | 'maxOrgs' | 'retryAfterMs' | 'onError' | 'now'>;

/**
 * Each organisation's own providers in an {@link OrgCache} on channel `byok:changed`. An
 * organisation without BYOK keys is cached as "none", so the request path does no store read for
 * it. A failed load fails open: the stale providers keep serving, or the platform's keys when
 * there are none, retried after `retryAfterMs`.
 */
export class OrgProviderCache {
  private readonly cache: OrgCache<ProviderLookup | undefined>;

  constructor(settings: OrgProviderCacheSettings) {
    this.cache = createOrgCache({ ...settings, channel: 'byok:changed', ttlMs: settings.ttlMs ?? 60_000, retryAfterMs: settings.retryAfterMs ?? 5_000, fallback: () => undefined });
  }

  /** Subscribes to invalidations from other instances. Call once at start. */
  start(): Promise<void> {
    return this.cache.start();
  }

  stop(): Promise<void> {
    return this.cache.stop();
  }

  /** The organisation's own providers (undefined: none); synchronous when cached. Never rejects. */
  forOrg(orgId: string): ProviderLookup | undefined | Promise<ProviderLookup | undefined> {
    return this.cache.get(orgId);
  }

  /** The organisation's keys changed: reloaded on next use, here at once and on every instance sharing the bus. */
  invalidate(orgId: string): Promise<void> {
    return this.cache.invalidate(orgId);
  }
}
