import type { Kv } from '@svc/kv';
import { LRUCache } from 'lru-cache';
import { withTimeout } from './with-timeout.js';

export interface GenerationsSettings {
  kv: Kv;
  /** Prefix of the generation keys in the Kv. */
  keyPrefix: string;
  /** How long a generation read from the Kv is trusted locally, ms. */
  ttlMs: number;
  /** A Kv read slower than this fails, ms. */
  timeoutMs: number;
  now: () => number;
  onError: (error: unknown) => void;
}

/** The purge generations an entry was stored under: every organisation's and its own. */
export interface Version {
  all: number;
  org: number;
}

const ALL = 'all';
const scopeOf = (orgId: string | undefined): string => (orgId === undefined ? ALL : `org:${orgId}`);

/**
 * Purge generations: one for every organisation together and one per organisation, kept in the
 * Kv (absent = 0) and bumped by each purge. An entry's version `<all>.<org>` is part of its
 * key, so a purge makes every older entry unreachable at once, on every instance, without
 * listing them. Each instance trusts what it read for `ttlMs` (purge messages update it sooner),
 * so one lost message costs at most that long of stale hits.
 */
export class Generations {
  private readonly kv: Kv;
  private readonly keyPrefix: string;
  private readonly timeoutMs: number;
  private readonly onError: (error: unknown) => void;
  private readonly known: LRUCache<string, number>;

  constructor(settings: GenerationsSettings) {
    this.kv = settings.kv;
    this.keyPrefix = settings.keyPrefix;
    this.timeoutMs = settings.timeoutMs;
    this.onError = settings.onError;
    this.known = new LRUCache<string, number>({
      max: 10_000,
      ttl: settings.ttlMs,
      // Read the clock on every check: lru-cache's default caches it for 1 ms behind a timer.
      ttlResolution: 0,
      perf: { now: settings.now },
      // Concurrent lookups of one scope share one Kv read; while the Kv fails, the last value
      // read keeps serving (a purge cannot reach the Kv then either).
      allowStaleOnFetchRejection: true,
      noDeleteOnFetchRejection: true,
      fetchMethod: (scope) => this.read(scope),
    });
  }

  /** The generations of `orgId`'s entries; undefined when the Kv fails and nothing was read before. */
  async version(orgId: string): Promise<Version | undefined> {
    try {
      const [all, org] = await Promise.all([this.known.fetch(ALL), this.known.fetch(scopeOf(orgId))]);
      return all === undefined || org === undefined ? undefined : { all, org };
    } catch {
      return undefined; // reported by `read`
    }
  }

  /** Bumps the generation of `orgId` (undefined: every organisation) in the Kv; rejects when the Kv fails. */
  async bump(orgId: string | undefined): Promise<number> {
    const generation = await this.kv.increment(this.kvKey(orgId));
    this.learn(orgId, generation);
    return generation;
  }

  /** Takes a generation heard from another instance's purge; never goes back. */
  learn(orgId: string | undefined, generation: number): void {
    const scope = scopeOf(orgId);
    const current = this.known.peek(scope, { allowStale: true });
    if (current === undefined || generation > current) this.known.set(scope, generation);
  }

  private async read(scope: string): Promise<number> {
    const orgId = scope === ALL ? undefined : scope.slice('org:'.length);
    try {
      const raw = await withTimeout(this.kv.get(this.kvKey(orgId)), this.timeoutMs, 'Kv');
      const generation = raw === null ? 0 : Number(raw);
      if (!Number.isSafeInteger(generation)) throw new Error(`cache generation ${scope} is not an integer: ${raw}`);
      return generation;
    } catch (error) {
      this.onError(error);
      throw error;
    }
  }

  private kvKey(orgId: string | undefined): string {
    return orgId === undefined ? `${this.keyPrefix}gen` : `${this.keyPrefix}gen:${orgId}`;
  }
}
