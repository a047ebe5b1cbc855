import { type Caller, type Guardrails, type ModelAccess, type Scope, authenticationError, isScope, masterKeyProtected, scopes as allScopes } from '@svc/core';
import { type InvalidationBus, type Kv, type OrgCache, createMemoryKv, createOrgCache } from '@svc/kv';
import { digestsEqual, generateApiKey, generateKeyId, hashApiKey, keyPrefix, keyPrefixLength, masterKeyLabel } from './api-key.js';
import { type FailureLimit, FailureThrottle, tooManyFailures } from './failure-throttle.js';
import { type MasterKeyOutcome, type SupersededKey, ensureMaster, rotateMaster } from './master-key.js';
import type { ApiKeyPatch, ApiKeyRecord, AuthStore } from './store.js';

/** Wrong keys a source address (or a key prefix) may present before it is throttled. */
export const defaultKeyFailureLimits = {
  perSource: { failures: 10, perMs: 60_000 },
  perSubject: { failures: 20, perMs: 60_000 },
} as const satisfies Record<string, FailureLimit>;

export interface AuthenticatorSettings {
  store: AuthStore;
  /** Cross-instance revocation (the kv): every instance evicts a revoked key from its cache at once. */
  bus?: InvalidationBus;
  /** Where failed attempts are counted (the shared kv); an in-process one when absent. */
  kv?: Pick<Kv, 'consumeAll'>;
  /** Wrong keys allowed per source address and per key prefix. Default {@link defaultKeyFailureLimits}. */
  failureLimits?: { perSource: FailureLimit; perSubject: FailureLimit };
  /** How long a superseded master key keeps working, ms. Default 0 (revoked at once). */
  masterKeyGraceMs?: number;
  /** The kv failed while counting a failure. */
  onThrottleError?: (error: unknown) => void;
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
 * What the failure throttle counts a wrong key under besides its source: a generated key's
 * `sk-svc-` and public identifier, or the first 8 characters of anything else (guessing the end of
 * a known beginning is what the prefix limit stops).
 */
function guessedPrefix(secret: string): string {
  return secret.startsWith('sk-svc-') ? secret.slice(0, keyPrefixLength) : secret.slice(0, 8);
}

/** Whether a key is the master key in force (a superseded one carries an expiry or is revoked). */
export function isCurrentMasterKey(key: Pick<ApiKeyRecord, 'kind' | 'status' | 'expiresAt'>): boolean {
  return key.kind === 'master' && key.status === 'active' && key.expiresAt === null;
}

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
  private readonly throttle: FailureThrottle;
  private readonly masterKeyGraceMs: number;

  constructor(settings: AuthenticatorSettings) {
    this.store = settings.store;
    this.now = settings.now ?? Date.now;
    this.masterKeyGraceMs = settings.masterKeyGraceMs ?? 0;
    const limits = settings.failureLimits ?? defaultKeyFailureLimits;
    this.throttle = new FailureThrottle({
      kv: settings.kv ?? createMemoryKv({ now: this.now }),
      name: 'api_key',
      ...limits,
      now: this.now,
      ...(settings.onThrottleError ? { onError: settings.onThrottleError } : {}),
    });
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

  /**
   * Resolves a presented secret to its caller or throws 401 with the spec's code. `source` (the
   * client's address, read only when needed) and the key's prefix are throttled after repeated
   * wrong keys: 429 with `retry-after`, for a right key too while blocked. A known key costs no
   * kv round trip: only a wrong one is counted.
   */
  async authenticate(secret: string | undefined, source?: () => string | undefined): Promise<Caller> {
    if (!secret) throw authenticationError('missing_api_key');
    // Nothing blocked on this instance (the usual case): no address read, no prefix sliced.
    if (this.throttle.blocking) this.throttle.check({ source: source?.(), subject: guessedPrefix(secret) }, 'API keys');
    const cached = this.cache.get(hashApiKey(secret));
    // A cached answer needs no extra microtask on the request path.
    const entry = cached instanceof Promise ? await cached : cached;
    if (entry === 'invalid') {
      const wait = await this.throttle.fail({ source: source?.(), subject: guessedPrefix(secret) });
      throw wait > 0 ? tooManyFailures('API keys', wait) : authenticationError('invalid_api_key');
    }
    return this.admit(entry);
  }

  /**
   * The caller of key `id`, as {@link authenticate} resolves the key's secret: work the key
   * submitted earlier (a batch's lines) runs as the key is now. 401 when it is unknown, revoked
   * or expired.
   */
  async callerOfKey(id: string): Promise<Caller> {
    const key = await this.store.keys.get(id);
    if (!key) throw authenticationError('invalid_api_key');
    const cached = this.cache.get(key.keyHash);
    const entry = cached instanceof Promise ? await cached : cached;
    if (entry === 'invalid') throw authenticationError('invalid_api_key');
    return this.admit(entry);
  }

  private admit(entry: Exclude<CacheEntry, 'invalid'>): Caller {
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
        ...(found.key.modelAccess ? { modelAccess: found.key.modelAccess } : {}),
        ...(found.key.guardrails && found.key.guardrails.length > 0 ? { guardrails: found.key.guardrails } : {}),
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
    /** The key's own model and alias lists, on top of its organisation's. */
    modelAccess?: ModelAccess | null;
    /** The key's own content checks, run after its organisation's. */
    guardrails?: Guardrails | null;
  }): Promise<IssuedKey> {
    const secret = generateApiKey();
    return { record: await this.create({ ...input, secret, keyPrefix: keyPrefix(secret), kind: 'standard' }), secret };
  }

  private create(input: Parameters<Authenticator['issue']>[0] & { secret: string; keyPrefix: string; kind: ApiKeyRecord['kind'] }): Promise<ApiKeyRecord> {
    return this.store.keys.create({
      id: generateKeyId(),
      orgId: input.orgId,
      name: input.name ?? null,
      keyHash: hashApiKey(input.secret),
      keyPrefix: input.keyPrefix,
      kind: input.kind,
      scopes: [...input.scopes],
      expiresAt: input.expiresAt ?? null,
      rpmLimit: input.rpmLimit ?? null,
      tpmLimit: input.tpmLimit ?? null,
      monthlyBudgetUsd: input.monthlyBudgetUsd ?? null,
      modelAccess: input.modelAccess ?? null,
      guardrails: input.guardrails ?? null,
    });
  }

  /**
   * Revokes a key: effective at once here, and on every instance sharing the bus. The master key in
   * force is refused (409: rotate it); a superseded one in its grace period may be revoked early.
   */
  async revoke(id: string): Promise<ApiKeyRecord | undefined> {
    const key = await this.store.keys.get(id);
    if (!key) return undefined;
    if (isCurrentMasterKey(key)) throw masterKeyProtected();
    const record = await this.store.keys.revoke(id);
    if (!record) return undefined;
    // Dropped here and on every instance: its next use reads the store and caches 'revoked'.
    await this.cache.invalidate(keyTag(id));
    return record;
  }

  /**
   * Makes `secret` (SVC_MASTER_KEY) the master key in force: an admin key of org `default` with
   * every scope, shown as `master` and never in part. A newer master key supersedes older ones
   * (revoked, or working until the grace period ends), on every instance at once. Idempotent
   * across restarts and instances.
   *
   * @throws MasterKeyError when a newer master key superseded this one and its grace has ended.
   */
  async ensureMasterKey(secret: string): Promise<MasterKeyOutcome> {
    const outcome = await ensureMaster(this.store, (s) => this.issueMaster(s), secret, this.rotation());
    await this.dropAll(outcome.superseded);
    return outcome;
  }

  /** Issues a new master key and supersedes the others (`svc master-key rotate`); the secret is returned once. */
  async rotateMasterKey(graceMs = this.masterKeyGraceMs): Promise<{ secret: string; record: ApiKeyRecord; superseded: SupersededKey[] }> {
    const rotated = await rotateMaster(this.store, (s) => this.issueMaster(s), { ...this.rotation(), graceMs });
    await this.dropAll(rotated.superseded);
    return rotated;
  }

  private rotation() {
    return { graceMs: this.masterKeyGraceMs, now: this.now };
  }

  private async dropAll(keys: readonly SupersededKey[]): Promise<void> {
    for (const key of keys) await this.cache.invalidate(keyTag(key.id));
  }

  private async issueMaster(secret: string): Promise<ApiKeyRecord> {
    const org = await this.store.orgs.ensure('default');
    try {
      return await this.create({ orgId: org.id, name: 'master', scopes: allScopes, secret, keyPrefix: masterKeyLabel, kind: 'master' });
    } catch (error) {
      // Another instance created it between our read and write.
      const raced = await this.store.keys.findByHash(hashApiKey(secret));
      if (raced) return raced.key;
      throw error;
    }
  }
}
