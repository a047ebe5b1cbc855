import type { CachedAnswer, ChatRequest } from '@svc/core';
import type { Kv } from '@svc/kv';
import { LRUCache } from 'lru-cache';
import { exactCacheKey, orgOfExactKey } from './exact-cache-key.js';
import { Generations, type Version } from './generations.js';
import { readStoredAnswer } from './stored-answer.js';
import { withTimeout } from './with-timeout.js';

/** Settings of {@link ExactCache}; only `kv` is required. */
export interface ExactCacheSettings {
  /** Holds the shared L1 entries and the purge generations, and carries purge messages. */
  kv: Kv;
  /** L0 bound: number of entries (default 10 000). */
  maxEntries?: number;
  /** L0 bound: total size of the entries' JSON, bytes (default 64 MiB). A larger answer stays L1-only. */
  maxBytes?: number;
  /** Lifetime of an entry from its `storedAt`, in both layers, ms (default 1 hour). */
  ttlMs?: number;
  /** Prefix of every Kv key and channel the cache uses (default `cache:exact:`). */
  keyPrefix?: string;
  /**
   * How long an instance trusts a purge generation it read from the Kv, ms (default 1000).
   * Purge messages update it at once; this bounds the stale hits after a lost message.
   */
  generationTtlMs?: number;
  /** A Kv read on the lookup path slower than this is a miss, ms (default 250). */
  kvTimeoutMs?: number;
  /** Cache sampled requests without a `seed` (see `ExactCacheKeyOptions`): for all, or per organisation. Default false. */
  allowNonDeterministic?: boolean | ((orgId: string) => boolean);
  /** Kv failures and timeouts, corrupt entries, unreadable purge messages. The cache then misses; it never fails a request. */
  onError?: (error: unknown) => void;
  /** Clock, epoch ms (default `Date.now`); also the clock of `CachedAnswer.storedAt`. */
  now?: () => number;
}

export interface ExactCacheHit {
  /** The stored answer, deep-frozen: it may be served to many requests at once. */
  answer: CachedAnswer;
  /** `l0` in-process, `l1` from the Kv (and now in L0 too). */
  layer: 'l0' | 'l1';
}

export interface PurgeResult {
  /** The organisation purged; undefined for all of them. */
  orgId: string | undefined;
  /** Entries this instance dropped from its L0. */
  l0Dropped: number;
  /**
   * Whether the purge reached the Kv: the scope's L1 entries are unreachable for every instance
   * from now on (they are not counted; they expire by TTL), and the other instances drop their
   * L0 entries when the purge message reaches them, or within `generationTtlMs`. False when the
   * Kv failed (reported to `onError`): only this instance's L0 was dropped.
   */
  shared: boolean;
}

export interface ExactCacheStats {
  hits: { l0: number; l1: number };
  /** `l0`: lookups not found in L0 (they go on to L1); `l1`: lookups found nowhere (Kv errors included). */
  misses: { l0: number; l1: number };
  lookups: number;
  /** All hits / lookups; 0 before the first lookup. */
  hitRate: number;
  /** Answers stored. */
  sets: number;
  /** Failures reported to `onError`. */
  errors: number;
  /** L0 entries pushed out by the entry or byte bound (expiry is not counted). */
  evictions: number;
  purges: number;
  l0: { entries: number; bytes: number; maxEntries: number; maxBytes: number };
}

interface L0Entry {
  answer: CachedAnswer;
  orgId: string;
  version: Version;
}

interface PurgeMessage {
  orgId?: string;
  generation: number;
}

/**
 * The exact cache: L0, an in-process LRU bounded by entries, bytes and TTL, in front of L1, the
 * Kv shared by every instance (values: JSON of `CachedAnswer`). Keys come from
 * {@link exactCacheKey}. Every method resolves; failures go to `onError` and count as misses.
 *
 * Call `start()` once so purges on other instances drop this instance's L0 entries at once, and
 * `close()` at shutdown (the Kv stays open: it belongs to the caller).
 */
export class ExactCache {
  private readonly kv: Kv;
  private readonly ttlMs: number;
  private readonly keyPrefix: string;
  private readonly kvTimeoutMs: number;
  private readonly allowNonDeterministic: (orgId: string) => boolean;
  private readonly reportError: (error: unknown) => void;
  private readonly now: () => number;
  private readonly l0: LRUCache<string, L0Entry>;
  private readonly generations: Generations;
  private readonly counts = { l0Hits: 0, l1Hits: 0, l0Misses: 0, l1Misses: 0, sets: 0, errors: 0, evictions: 0, purges: 0 };
  private unsubscribe: (() => Promise<void>) | undefined;

  constructor(settings: ExactCacheSettings) {
    this.kv = settings.kv;
    this.ttlMs = settings.ttlMs ?? 3_600_000;
    this.keyPrefix = settings.keyPrefix ?? 'cache:exact:';
    this.kvTimeoutMs = settings.kvTimeoutMs ?? 250;
    const allow = settings.allowNonDeterministic ?? false;
    this.allowNonDeterministic = typeof allow === 'function' ? allow : () => allow;
    const onError = settings.onError ?? (() => {});
    this.reportError = (error) => {
      this.counts.errors++;
      onError(error);
    };
    this.now = settings.now ?? Date.now;
    this.l0 = new LRUCache<string, L0Entry>({
      max: settings.maxEntries ?? 10_000,
      maxSize: settings.maxBytes ?? 64 * 1024 * 1024,
      ttl: this.ttlMs,
      // Read the clock on every check: lru-cache's default caches it for 1 ms behind a timer.
      ttlResolution: 0,
      perf: { now: this.now },
      dispose: (_value, _key, reason) => {
        if (reason === 'evict') this.counts.evictions++;
      },
    });
    this.generations = new Generations({
      kv: this.kv,
      keyPrefix: this.keyPrefix,
      ttlMs: settings.generationTtlMs ?? 1000,
      timeoutMs: this.kvTimeoutMs,
      now: this.now,
      onError: this.reportError,
    });
  }

  /**
   * The key of `request` for `orgId` (and `audience` inside it, see {@link ExactCacheKeyOptions})
   * under this cache's policy; undefined: do not cache it.
   */
  key(request: ChatRequest, orgId: string, audience?: string): string | undefined {
    return exactCacheKey(request, orgId, { allowNonDeterministic: this.allowNonDeterministic(orgId), ...(audience !== undefined ? { audience } : {}) });
  }

  /** L0, then L1 (a hit there is promoted into L0); undefined on a miss or a Kv failure. */
  async get(key: string): Promise<ExactCacheHit | undefined> {
    const orgId = orgOfExactKey(key);
    if (orgId === undefined) {
      this.reportError(new Error(`exact cache: ${key.slice(0, 100)} is not an exact cache key`));
      return this.miss();
    }
    const version = await this.generations.version(orgId);
    if (version === undefined) return this.miss();
    const entryKey = entryKeyOf(version, key);
    const local = this.l0.get(entryKey);
    if (local !== undefined) {
      this.counts.l0Hits++;
      return { answer: local.answer, layer: 'l0' };
    }
    try {
      const json = await withTimeout(this.kv.get(this.l1Key(entryKey)), this.kvTimeoutMs, 'Kv');
      if (json === null) return this.miss();
      const answer = readStoredAnswer(json);
      if (answer === undefined) throw new Error(`exact cache entry of org ${orgId} is not a CachedAnswer`);
      if (!this.keepInL0(entryKey, { answer, orgId, version }, json)) return this.miss();
      this.counts.l0Misses++;
      this.counts.l1Hits++;
      return { answer, layer: 'l1' };
    } catch (error) {
      this.reportError(error);
      return this.miss();
    }
  }

  /**
   * Stores `answer` under `key` (from {@link ExactCache.key} for `orgId`) in L0 and L1 for
   * `ttlMs` from `answer.storedAt`. Never rejects: failures go to `onError`; fire and forget.
   */
  async set(key: string, orgId: string, answer: CachedAnswer): Promise<void> {
    try {
      if (orgOfExactKey(key) !== orgId) throw new Error(`exact cache key does not belong to org ${orgId}`);
      const json = JSON.stringify(answer);
      const stored = readStoredAnswer(json);
      if (stored === undefined) throw new Error('exact cache: not a CachedAnswer');
      const version = await this.generations.version(orgId);
      if (version === undefined) return;
      const entryKey = entryKeyOf(version, key);
      if (!this.keepInL0(entryKey, { answer: stored, orgId, version }, json)) return;
      this.counts.sets++;
      await this.kv.set(this.l1Key(entryKey), json, { ttlMs: this.remainingMs(stored) });
    } catch (error) {
      this.reportError(error);
    }
  }

  /**
   * Drops the entries of `orgId`, or of every organisation: at once in this L0 and in L1 (by
   * bumping the purge generation), and in the other instances' L0 by a Kv message. Idempotent;
   * never rejects.
   */
  async purge(orgId?: string): Promise<PurgeResult> {
    this.counts.purges++;
    // Without a new generation (the Kv failed), every local entry of the scope goes.
    let generation = Number.POSITIVE_INFINITY;
    try {
      generation = await this.generations.bump(orgId);
    } catch (error) {
      this.reportError(error);
    }
    // After the bump, so an entry stored meanwhile under the old generation goes too; before
    // the message, which this instance hears as well.
    const l0Dropped = this.dropLocal(orgId, generation);
    const shared = Number.isFinite(generation);
    if (shared) {
      try {
        await this.kv.publish(this.channel(), JSON.stringify({ orgId, generation } satisfies PurgeMessage));
      } catch (error) {
        this.reportError(error);
      }
    }
    return { orgId, l0Dropped, shared };
  }

  /**
   * Listens for purges made on other instances. Resolves even when the Kv fails (reported to
   * `onError`): purges then reach this instance within `generationTtlMs` instead of at once.
   */
  async start(): Promise<void> {
    if (this.unsubscribe !== undefined) return;
    try {
      this.unsubscribe = await this.kv.subscribe(this.channel(), (message) => this.onPurgeMessage(message));
    } catch (error) {
      this.reportError(error);
    }
  }

  /** Stops listening for purges; idempotent. The cache keeps answering from both layers. */
  async close(): Promise<void> {
    const unsubscribe = this.unsubscribe;
    this.unsubscribe = undefined;
    try {
      await unsubscribe?.();
    } catch (error) {
      this.reportError(error);
    }
  }

  stats(): ExactCacheStats {
    const c = this.counts;
    const hits = c.l0Hits + c.l1Hits;
    const lookups = hits + c.l1Misses;
    return {
      hits: { l0: c.l0Hits, l1: c.l1Hits },
      misses: { l0: c.l0Misses, l1: c.l1Misses },
      lookups,
      hitRate: lookups === 0 ? 0 : hits / lookups,
      sets: c.sets,
      errors: c.errors,
      evictions: c.evictions,
      purges: c.purges,
      l0: { entries: this.l0.size, bytes: this.l0.calculatedSize, maxEntries: this.l0.max, maxBytes: this.l0.maxSize },
    };
  }

  private miss(): undefined {
    this.counts.l0Misses++;
    this.counts.l1Misses++;
    return undefined;
  }

  /** Puts an entry in L0 for the rest of its lifetime; false when that is already over. */
  private keepInL0(entryKey: string, entry: L0Entry, json: string): boolean {
    const remainingMs = this.remainingMs(entry.answer);
    if (remainingMs <= 0) return false;
    this.l0.set(entryKey, entry, { ttl: remainingMs, size: Buffer.byteLength(json) + entryKey.length });
    return true;
  }

  private remainingMs(answer: CachedAnswer): number {
    return Math.min(this.ttlMs, answer.storedAt + this.ttlMs - this.now());
  }

  /** Drops the L0 entries of the scope stored under an older generation than `generation`. */
  private dropLocal(orgId: string | undefined, generation: number): number {
    const keys: string[] = [];
    for (const [entryKey, { version, orgId: owner }] of this.l0.entries()) {
      const older = orgId === undefined ? version.all < generation : owner === orgId && version.org < generation;
      if (older) keys.push(entryKey);
    }
    for (const entryKey of keys) this.l0.delete(entryKey);
    return keys.length;
  }

  private onPurgeMessage(message: string): void {
    try {
      const parsed: unknown = JSON.parse(message);
      if (!isPurgeMessage(parsed)) throw new Error(`exact cache: unreadable purge message ${message.slice(0, 200)}`);
      this.generations.learn(parsed.orgId, parsed.generation);
      this.dropLocal(parsed.orgId, parsed.generation);
    } catch (error) {
      this.reportError(error);
    }
  }

  private l1Key(entryKey: string): string {
    return `${this.keyPrefix}e:${entryKey}`;
  }

  private channel(): string {
    return `${this.keyPrefix}purge`;
  }
}

/** The L0 key, and after the prefix the L1 key: older generations are never looked up again. */
function entryKeyOf(version: Version, key: string): string {
  return `${version.all}.${version.org}:${key}`;
}

function isPurgeMessage(value: unknown): value is PurgeMessage {
  if (typeof value !== 'object' || value === null) return false;
  const { orgId, generation } = value as Record<string, unknown>;
  return (orgId === undefined || typeof orgId === 'string') && Number.isSafeInteger(generation);
}
