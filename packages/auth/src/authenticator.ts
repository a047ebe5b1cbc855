import { type Caller, type Scope, authenticationError, isScope, scopes as allScopes } from '@svc/core';
import { LRUCache } from 'lru-cache';
import { digestsEqual, generateApiKey, generateKeyId, hashApiKey, keyPrefix } from './api-key.js';
import type { ApiKeyPatch, ApiKeyRecord, AuthStore, RevocationBus } from './store.js';

export interface AuthenticatorSettings {
  store: AuthStore;
  /** Cross-instance revocation: every instance evicts a revoked key from its cache at once. */
  bus?: RevocationBus;
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

const revocationChannel = 'auth:revoked';
const orgChannel = 'auth:org-changed';
const keyChannel = 'auth:key-changed';

interface CachedKey {
  caller: Caller;
  keyHash: string;
  expiresAt: number | null;
}

/** A verified key, or why a hash is refused (cached too, so refusals stay cheap). */
type CacheEntry = CachedKey | 'invalid' | 'revoked';

/**
 * Verifies API keys: SHA-256 of the presented secret, looked up by hash, cached for a short
 * TTL. Revocation evicts at once on this instance and, through the bus, on every other one.
 * Unknown hashes are cached too (briefly) so a flood of bad keys does not reach the database.
 */
export class Authenticator {
  private readonly store: AuthStore;
  private readonly bus: RevocationBus | undefined;
  private readonly now: () => number;
  private readonly cache: LRUCache<string, CacheEntry>;
  private readonly hashesById = new Map<string, string>();
  private unsubscribe: (() => Promise<void>)[] | undefined;

  constructor(settings: AuthenticatorSettings) {
    this.store = settings.store;
    this.bus = settings.bus;
    this.now = settings.now ?? Date.now;
    this.cache = new LRUCache<string, CacheEntry>({
      max: settings.cacheSize ?? 10_000,
      ttl: settings.cacheTtlMs ?? 30_000,
      dispose: (value) => {
        if (typeof value === 'object') this.hashesById.delete(value.caller.keyId);
      },
    });
  }

  /** Subscribes to cross-instance revocations. Call once at start. */
  async start(): Promise<void> {
    if (!this.bus || this.unsubscribe) return;
    this.unsubscribe = await Promise.all([
      this.bus.subscribe(revocationChannel, (keyId) => this.evict(keyId)),
      this.bus.subscribe(orgChannel, (orgId) => this.forgetOrg(orgId)),
      this.bus.subscribe(keyChannel, (keyId) => this.forgetKey(keyId)),
    ]);
  }

  async stop(): Promise<void> {
    const unsubscribe = this.unsubscribe ?? [];
    this.unsubscribe = undefined;
    await Promise.all(unsubscribe.map((off) => off()));
  }

  /**
   * An organisation's record changed (limits, default intelligence mode, ...): its callers are
   * reloaded on their next request, here at once and on every instance sharing the bus.
   */
  async orgChanged(orgId: string): Promise<void> {
    this.forgetOrg(orgId);
    await this.bus?.publish(orgChannel, orgId);
  }

  /**
   * Changes a key's name or its own limits; the key is reloaded on its next request,
   * here at once and on every instance sharing the bus. Undefined for an unknown id.
   */
  async update(id: string, patch: ApiKeyPatch): Promise<ApiKeyRecord | undefined> {
    const record = await this.store.keys.update(id, patch);
    if (!record) return undefined;
    this.forgetKey(id);
    await this.bus?.publish(keyChannel, id);
    return record;
  }

  private forgetKey(keyId: string): void {
    const hash = this.hashesById.get(keyId);
    if (hash !== undefined && typeof this.cache.peek(hash) === 'object') this.cache.delete(hash);
  }

  private forgetOrg(orgId: string): void {
    for (const [hash, entry] of this.cache.entries()) {
      if (typeof entry === 'object' && entry.caller.org.id === orgId) this.cache.delete(hash);
    }
  }

  /** Resolves a presented secret to its caller or throws 401 with the spec's code. */
  async authenticate(secret: string | undefined): Promise<Caller> {
    if (!secret) throw authenticationError('missing_api_key');
    const hash = hashApiKey(secret);
    let entry = this.cache.get(hash);
    if (entry === undefined) {
      entry = await this.load(hash);
      if (typeof entry === 'object') {
        this.cache.set(hash, entry);
        this.hashesById.set(entry.caller.keyId, hash);
      } else {
        this.cache.set(hash, entry, { ttl: entry === 'invalid' ? 2_000 : 60_000 });
      }
    }
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
    const record = await this.store.keys.revoke(id);
    if (!record) return undefined;
    this.evict(id);
    await this.bus?.publish(revocationChannel, id);
    return record;
  }

  /**
   * Makes sure the bootstrap master key exists as an admin key of org `default`
   * (`SVC_MASTER_KEY`). Idempotent across restarts and instances.
   */
  async ensureMasterKey(secret: string): Promise<ApiKeyRecord> {
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

  private evict(keyId: string): void {
    const hash = this.hashesById.get(keyId);
    if (hash !== undefined) this.cache.set(hash, 'revoked', { ttl: 60_000 });
  }
}
