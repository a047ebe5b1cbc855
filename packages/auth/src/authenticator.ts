import { type Caller, type Scope, authenticationError, isScope, masterKeyProtected, scopes as allScopes } from '@svc/core';
import { type InvalidationBus, type OrgCache, createOrgCache } from '@svc/kv';
import { digestsEqual, generateApiKey, generateKeyId, hashApiKey, keyPrefix } from './api-key.js';
import type { ApiKeyPatch, ApiKeyRecord, AuthStore } from './store.js';

export interface AuthenticatorSettings {
  store: AuthStore;
  /** Cross-instance revocation (the kv): every instance evicts a revoked key from its cache at once. */
  bus?: InvalidationBus;
  /** How long a verified key is trusted without a database read. Default 30 s. */
  cacheTtlMs?: number;
  /** Verified keys kept in memory. Default 10,000. */
  cacheSize?: number;
  now?: () => number;
}

export interface IssuedKey {
  record: ApiKeyRecord;
  /** The secret, shown once. */
  secret: string;
}

/** Verified keys are cached by hash and invalidated by these tags. */
const orgTag = (orgId: string): string => `org:${orgId}`;
const keyTag = (keyId: string): string => `key:${keyId}`;

interface CachedKey {
  caller: Caller;
  keyHash: string;
  expiresAt: number | null;
}

/** A verified key, or why a hash is refused (cached too, so refusals stay cheap). */
type CacheEntry = CachedKey | 'invalid' | 'revoked';

/**
 * Verifies API keys: SHA-256 of the presented secret, looked up by hash, cached for a short
 * TTL in an {@link OrgCache} (channel `auth:changed`). Revocation evicts at once on this instance
 * and, through the bus, on every other one. Unknown hashes are cached too (briefly) so a flood of
 * bad keys does not reach the database.
 */
export class Authenticator {
  private readonly store: AuthStore;
  private readonly now: () => number;
  private readonly cache: OrgCache<CacheEntry>;
  /** The bootstrap master key's id, once `ensureMasterKey` ran. */
  private masterKeyId: string | undefined;

  constructor(settings: AuthenticatorSettings) {
    this.store = settings.store;
    this.now = settings.now ?? Date.now;
    this.cache = createOrgCache<CacheEntry>({
      load: (hash) => this.load(hash),
      channel: 'auth:changed',
      ttlMs: settings.cacheTtlMs ?? 30_000,
      ttlOf: (entry) => (entry === 'invalid' ? 2_000 : entry === 'revoked' ? 60_000 : undefined),
      tagsOf: (entry) => (typeof entry === 'object' ? [orgTag(entry.caller.org.id), keyTag(entry.caller.keyId)] : []),
      maxOrgs: settings.cacheSize ?? 10_000,
      now: this.now,
      ...(settings.bus ? { bus: settings.bus } : {}),
    });
  }

  /** Subscribes to cross-instance revocations and changes. Call once at start. */
  start(): Promise<void> {
    return this.cache.start();
  }

  stop(): Promise<void> {
    return this.cache.stop();
  }

  /**
   * An organisation's record changed (limits, default intelligence mode, ...): its callers are
   * reloaded on their next request, here at once and on every instance sharing the bus.
   */
  orgChanged(orgId: string): Promise<void> {
    return this.cache.invalidate(orgTag(orgId));
  }

  /**
   * Changes a key's name or its own limits; the key is reloaded on its next request,
   * here at once and on every instance sharing the bus. Undefined for an unknown id.
   */
  async update(id: string, patch: ApiKeyPatch): Promise<ApiKeyRecord | undefined> {
    const record = await this.store.keys.update(id, patch);
    if (!record) return undefined;
    await this.cache.invalidate(keyTag(id));
    return record;
  }

  /** Resolves a presented secret to its caller or throws 401 with the spec's code. */
  async authenticate(secret: string | undefined): Promise<Caller> {
    if (!secret) throw authenticationError('missing_api_key');
    const cached = this.cache.get(hashApiKey(secret));
    // A cached answer needs no extra microtask on the request path.
    const entry = cached instanceof Promise ? await cached : cached;
    if (entry === 'invalid') throw authenticationError('invalid_api_key');
    if (entry === 'revoked') throw authenticationError('revoked_api_key');
    if (entry.expiresAt !== null && entry.expiresAt <= this.now()) throw authenticationError('expired_api_key');
    return entry.caller;
  }

  private async load(hash: string): Promise<CacheEntry> {
    const found = await this.store.keys.findByHash(hash);
    if (!found || !digestsEqual(found.key.keyHash, hash)) return 'invalid';
    if (found.key.status === 'revoked') return 'revoked';
    const scopes = new Set<Scope>(found.key.scopes.filter(isScope));
    return {
      keyHash: hash,
      expiresAt: found.key.expiresAt ? found.key.expiresAt.getTime() : null,
      caller: {
        keyId: found.key.id,
        keyPrefix: found.key.keyPrefix,
        org: found.org,
        scopes,
        ...(found.key.rpmLimit === null && found.key.tpmLimit === null && found.key.monthlyBudgetUsd === null
          ? {}
          : { keyLimits: { rpm: found.key.rpmLimit, tpm: found.key.tpmLimit, monthlyBudgetUsd: found.key.monthlyBudgetUsd } }),
      },
    };
  }

  /** Creates a key; the secret is returned once and never stored. */
  async issue(input: {
    orgId: string;
    name?: string | null;
    scopes: readonly Scope[];
    expiresAt?: Date | null;
    /** The key's own requests and tokens per minute and monthly budget, on top of its organisation's limits. */
    rpmLimit?: number | null;
    tpmLimit?: number | null;
    monthlyBudgetUsd?: number | null;
    secret?: string;
  }): Promise<IssuedKey> {
    const secret = input.secret ?? generateApiKey();
    const record = await this.store.keys.create({
      id: generateKeyId(),
      orgId: input.orgId,
      name: input.name ?? null,
      keyHash: hashApiKey(secret),
      keyPrefix: keyPrefix(secret),
      scopes: [...input.scopes],
      expiresAt: input.expiresAt ?? null,
      rpmLimit: input.rpmLimit ?? null,
      tpmLimit: input.tpmLimit ?? null,
      monthlyBudgetUsd: input.monthlyBudgetUsd ?? null,
    });
    return { record, secret };
  }

  /** Revokes a key: effective at once here, and on every instance sharing the bus. */
  async revoke(id: string): Promise<ApiKeyRecord | undefined> {
    if (this.isMasterKey(id)) throw masterKeyProtected();
    const record = await this.store.keys.revoke(id);
    if (!record) return undefined;
    // Dropped here and on every instance: its next use reads the store and caches 'revoked'.
    await this.cache.invalidate(keyTag(id));
    return record;
  }

  /**
   * Makes sure the bootstrap master key exists as an admin key of org `default`
   * (`SVC_MASTER_KEY`). Idempotent across restarts and instances.
   */
  async ensureMasterKey(secret: string): Promise<ApiKeyRecord> {
    const record = await this.findOrIssueMaster(secret);
    this.masterKeyId = record.id;
    return record;
  }

  /** Whether `id` is the bootstrap master key (`SVC_MASTER_KEY`): it is never revoked through the API. */
  isMasterKey(id: string): boolean {
    return id === this.masterKeyId;
  }

  private async findOrIssueMaster(secret: string): Promise<ApiKeyRecord> {
    const existing = await this.store.keys.findByHash(hashApiKey(secret));
    if (existing) return existing.key;
    const org = await this.store.orgs.ensure('default');
    try {
      return (await this.issue({ orgId: org.id, name: 'master', scopes: allScopes, secret })).record;
    } catch (error) {
      // Another instance created it between our read and write.
      const raced = await this.store.keys.findByHash(hashApiKey(secret));
      if (raced) return raced.key;
      throw error;
    }
  }
}
