import type { InvalidationBus } from '@svc/kv';
import { type ProviderRegistryConfig, createProviderRegistry } from '@svc/providers';
import type { CredentialCipher, SealedCredential } from './credential-cipher.js';
import { OrgProviderCache, type ProviderLookup } from './org-provider-cache.js';
import { byokProviderIds, orgProviderConfig } from './org-provider-config.js';

/** A stored credential as the store returns it (`@svc/db`'s ProviderKeyRecord fits). */
export interface StoredProviderKey extends SealedCredential {
  provider: string;
  last4: string;
  createdAt: Date;
  updatedAt: Date;
}

/** Where sealed credentials live (`@svc/db`'s `db.providerKeys` fits). */
export interface ProviderKeyStore {
  list(orgId: string): Promise<StoredProviderKey[]>;
  put(orgId: string, key: SealedCredential & { provider: string; last4: string }): Promise<{ key: StoredProviderKey; created: boolean }>;
  delete(orgId: string, provider: string): Promise<boolean>;
}

/** A credential as it may be shown: never the secret, only its last 4 characters. */
export interface MaskedProviderKey {
  provider: string;
  last4: string;
  /** Id of the encryption key that sealed it. */
  keyVersion: string;
  createdAt: Date;
  updatedAt: Date;
}

export interface ByokSettings {
  store: ProviderKeyStore;
  cipher: CredentialCipher;
  /**
   * The platform's provider configuration (`providerConfig` of the server's runtime, apps/server/src/runtime/provider-config.ts): an organisation's
   * providers use its base URLs, API versions, regions and HTTP transport with the org's key.
   */
  platform: ProviderRegistryConfig;
  /** Cross-instance invalidation (the kv). */
  bus?: InvalidationBus;
  /** Per-organisation cache lifetime in ms. Default 60 s. */
  ttlMs?: number;
  /** Organisations cached. Default 10,000. */
  maxOrgs?: number;
  /** A credential that would not open, or a failed load; the request is then served with the platform's keys. */
  onError?: (error: unknown, orgId: string) => void;
  now?: () => number;
}

/** Thrown by `put` for a provider id no organisation can store a key for. */
export class UnknownByokProviderError extends Error {
  constructor(readonly provider: string) {
    super(`Unknown provider '${provider}'.`);
    this.name = 'UnknownByokProviderError';
  }
}

/**
 * Bring your own key: stores organisations' provider credentials sealed, and answers the
 * pipeline's `byok.forOrg(orgId)` with the organisation's own providers (cached per organisation;
 * every write invalidates it here and, through the bus, on every other instance).
 */
export class ByokService {
  private readonly settings: ByokSettings;
  private readonly cache: OrgProviderCache;
  /** Provider ids an organisation may store a key for. */
  readonly providerIds: ReadonlySet<string>;

  constructor(settings: ByokSettings) {
    this.settings = settings;
    this.providerIds = byokProviderIds(settings.platform);
    this.cache = new OrgProviderCache({ ...settings, load: (orgId) => this.load(orgId) });
  }

  /** Subscribes to invalidations from other instances. Call once at start. */
  start(): Promise<void> {
    return this.cache.start();
  }

  stop(): Promise<void> {
    return this.cache.stop();
  }

  /** The organisation's own providers, undefined when it has none; synchronous when cached. Never rejects. */
  forOrg(orgId: string): ProviderLookup | undefined | Promise<ProviderLookup | undefined> {
    return this.cache.forOrg(orgId);
  }

  supports(provider: string): boolean {
    return this.providerIds.has(provider);
  }

  /** The organisation's credentials, masked, by provider id. */
  async list(orgId: string): Promise<MaskedProviderKey[]> {
    return (await this.settings.store.list(orgId)).map(mask);
  }

  /**
   * Seals and stores the organisation's key for `provider`, replacing any earlier one. Rejects
   * with UnknownByokProviderError for an unsupported id, and when the organisation does not exist.
   */
  async put(orgId: string, provider: string, secret: string): Promise<{ key: MaskedProviderKey; created: boolean }> {
    if (!this.supports(provider)) throw new UnknownByokProviderError(provider);
    const sealed = this.settings.cipher.seal(secret, { orgId, provider });
    const { key, created } = await this.settings.store.put(orgId, { provider, ...sealed, last4: secret.slice(-4) });
    await this.cache.invalidate(orgId);
    return { key: mask(key), created };
  }

  /** False when the organisation had no key for `provider`. */
  async delete(orgId: string, provider: string): Promise<boolean> {
    const deleted = await this.settings.store.delete(orgId, provider);
    if (deleted) await this.cache.invalidate(orgId);
    return deleted;
  }

  private async load(orgId: string): Promise<ProviderLookup | undefined> {
    const stored = await this.settings.store.list(orgId);
    const secrets = new Map<string, string>();
    for (const record of stored) {
      if (!this.supports(record.provider)) continue;
      try {
        secrets.set(record.provider, this.settings.cipher.open(record, { orgId, provider: record.provider }));
      } catch (error) {
        // That provider falls back to the platform's key; the others still use the org's.
        this.settings.onError?.(error, orgId);
      }
    }
    if (secrets.size === 0) return undefined;
    const registry = createProviderRegistry(orgProviderConfig(this.settings.platform, secrets));
    return registry.ids().size > 0 ? registry : undefined;
  }
}

function mask(key: StoredProviderKey): MaskedProviderKey {
  return { provider: key.provider, last4: key.last4, keyVersion: key.keyVersion, createdAt: key.createdAt, updatedAt: key.updatedAt };
}
