import { randomUUID } from 'node:crypto';
import type { Kv } from '@svc/kv';
import { BreakerKeys, type OpenRecord, parseOpenRecord } from './breaker-keys.js';
import { bucketOf, rollingCount } from './breaker-window.js';
import { BreakerIndex } from './breaker-index.js';
import { type BreakerSettings, type ResolvedBreakerSettings, resolveBreakerSettings } from './breaker-settings.js';
import type { Admission, BreakerOutcome, BreakerState, BreakerStatus, BreakerTransition, TransitionReason } from './breaker-types.js';

export type { BreakerSettings } from './breaker-settings.js';
export type * from './breaker-types.js';

/** Local view of one breaker, trusted until `expiresAt`. */
interface View {
  open: OpenRecord | null;
  expiresAt: number;
  /** While half-open and every probe slot is taken: do not ask the Kv again before this. */
  probeBusyUntil?: number;
  /** Latest moment the running probe's slot frees (its TTL), for `retryAfterMs`. */
  probeFreeAt?: number;
}

const ALLOWED: Admission = Object.freeze({ allowed: true, probe: false });
const ALLOWED_NOW: Promise<Admission> = Promise.resolve(ALLOWED);

/**
 * Circuit breakers keyed by `provider/model`, with their state in a {@link Kv} so every gateway
 * instance sharing Redis sees (and probes) the same breaker.
 *
 * - closed: calls pass; the breaker opens after `consecutiveFailures` failures in a row, or when
 *   the rolling window holds at least `minimumRequests` outcomes and the failure ratio reaches
 *   `errorRatio`.
 * - open: calls are refused until `openedAt + cooldownMs`.
 * - half-open: up to `halfOpenMaxProbes` calls (across all instances) are admitted as probes; a
 *   probe success closes the breaker, a probe failure reopens it with the cooldown doubled
 *   (capped at `cooldownMaxMs`). A relapse soon after closing also reopens at the next level.
 *
 * Hot path: `allow()` trusts a local view of each breaker for `cacheMs` (default 250 ms), so a
 * healthy request costs no Kv round trip. Staleness bound: a change made by another instance
 * (open, close, reset) is seen here at most `cacheMs` (plus one Kv read) later; changes made by
 * this instance are seen at once. A half-open decision always re-reads the Kv.
 *
 * Kv failures never fail a request: `allow()` then admits (fail open) and `record()` reports to
 * `onError` instead of rejecting.
 */
export class CircuitBreakers {
  private readonly kv: Kv;
  private readonly settings: ResolvedBreakerSettings;
  private readonly keys: BreakerKeys;
  private readonly now: () => number;
  private readonly onError: (error: unknown) => void;
  private readonly onTransition: (transition: BreakerTransition) => void;
  private readonly instanceId = randomUUID();
  private readonly views = new Map<string, View>();
  private readonly refreshing = new Map<string, Promise<View>>();
  /** Bumped by every local write, so a Kv read that started earlier cannot overwrite it. */
  private readonly generations = new Map<string, number>();
  /** Probe slots this instance holds, per breaker. */
  private readonly held = new Map<string, number[]>();
  private readonly index: BreakerIndex;

  constructor(settings: BreakerSettings) {
    this.kv = settings.kv;
    this.settings = resolveBreakerSettings(settings);
    this.keys = new BreakerKeys(this.settings.keyPrefix);
    this.index = new BreakerIndex(this.kv, this.keys);
    this.now = settings.now ?? Date.now;
    this.onError = settings.onError ?? (() => {});
    this.onTransition = settings.onTransition ?? (() => {});
  }

  /** The rolling window of the failure and success counts `status()` reports (ms). */
  get windowMs(): number {
    return this.settings.windowMs;
  }

  /**
   * Whether `key` may be called now. Resolves (never rejects) with `probe: true` for the one
   * caller admitted as the half-open probe; that caller must report with `record(..., { probe:
   * true })` or `releaseProbe()`, otherwise the slot frees after `probeTimeoutMs`.
   */
  allow(key: string): Promise<Admission> {
    const now = this.now();
    const view = this.views.get(key);
    if (view !== undefined && now < view.expiresAt && view.open === null) return ALLOWED_NOW;
    return this.admit(key, view, now);
  }

  /**
   * Synchronous and local: true while this instance's last view of `key` is open and still in
   * its cooldown. For routing, which must not wait on the Kv; `allow()` stays the authority.
   */
  knownOpen(key: string): boolean {
    const open = this.views.get(key)?.open;
    return open != null && this.now() < open.openedAt + open.cooldownMs;
  }

  /**
   * Reports the outcome of a call admitted by `allow()`. Never rejects (Kv errors go to
   * `onError`); awaiting it is optional, but state changes are visible to this instance once it
   * resolves.
   */
  async record(key: string, outcome: BreakerOutcome, options: { probe?: boolean } = {}): Promise<void> {
    try {
      const work = options.probe === true ? this.recordProbe(key, outcome) : this.recordOutcome(key, outcome);
      await Promise.all([this.index.register(key), work]);
    } catch (error) {
      this.onError(error);
    }
  }

  /** Gives a probe slot back without an outcome (e.g. the client went away). Never rejects. */
  async releaseProbe(key: string): Promise<void> {
    try {
      await this.releaseSlot(key, this.takeHeldSlot(key));
    } catch (error) {
      this.onError(error);
    }
  }

  /** The state of one breaker, read from the Kv. A never-seen key is closed with zero counts. */
  async status(key: string): Promise<BreakerStatus> {
    const now = this.now();
    const bucket = bucketOf(now, this.settings.windowMs);
    const [raw, consecutive, successes, failures, previousSuccesses, previousFailures] = await Promise.all([
      this.kv.get(this.keys.open(key)),
      this.kv.get(this.keys.consecutive(key)),
      this.kv.get(this.keys.bucket(key, bucket, 'success')),
      this.kv.get(this.keys.bucket(key, bucket, 'failure')),
      this.kv.get(this.keys.bucket(key, bucket - 1, 'success')),
      this.kv.get(this.keys.bucket(key, bucket - 1, 'failure')),
    ]);
    const open = parseOpenRecord(raw);
    const windowMs = this.settings.windowMs;
    return {
      key,
      state: stateOf(open, now),
      failures: Math.round(rollingCount(toCount(failures), toCount(previousFailures), now, windowMs)),
      successes: Math.round(rollingCount(toCount(successes), toCount(previousSuccesses), now, windowMs)),
      consecutiveFailures: toCount(consecutive),
      openedAt: open?.openedAt ?? null,
      nextProbeAt: open === null ? null : open.openedAt + open.cooldownMs,
      cooldownMs: open?.cooldownMs ?? null,
    };
  }

  /** Every breaker any instance sharing the Kv has recorded an outcome for, sorted by key. */
  async list(): Promise<BreakerStatus[]> {
    const keys = await this.index.keys();
    return Promise.all(keys.map((key) => this.status(key)));
  }

  /**
   * Closes one breaker (or every known one) and clears its counts and backoff. Idempotent;
   * other instances see it within `cacheMs`.
   */
  async reset(key?: string): Promise<void> {
    const keys = key === undefined ? await this.index.keys() : [key];
    await Promise.all(keys.map((one) => this.resetOne(one)));
  }

  private async admit(key: string, cached: View | undefined, now: number): Promise<Admission> {
    const stale = cached === undefined || now >= cached.expiresAt;
    let view = stale ? await this.refresh(key) : cached;
    let verdict = this.verdict(view);
    if (verdict !== 'half_open') return verdict;
    // Half-open on a cached view: another instance may have closed the breaker since, and a
    // probe granted on a closed breaker would reopen it on a single failure.
    if (!stale) {
      view = await this.refresh(key);
      verdict = this.verdict(view);
      if (verdict !== 'half_open') return verdict;
    }
    return this.tryProbe(key, view);
  }

  private verdict(view: View): Admission | 'half_open' {
    if (view.open === null) return ALLOWED;
    const now = this.now();
    const nextProbeAt = view.open.openedAt + view.open.cooldownMs;
    if (now < nextProbeAt) return { allowed: false, probe: false, retryAfterMs: nextProbeAt - now };
    if (view.probeBusyUntil !== undefined && now < view.probeBusyUntil) {
      return { allowed: false, probe: false, retryAfterMs: Math.max(1, (view.probeFreeAt ?? now) - now) };
    }
    return 'half_open';
  }

  private async tryProbe(key: string, view: View): Promise<Admission> {
    const slots = this.settings.halfOpenMaxProbes;
    try {
      for (let slot = 0; slot < slots; slot++) {
        const won = await this.kv.setIfAbsent(this.keys.probe(key, slot), this.instanceId, { ttlMs: this.settings.probeTimeoutMs });
        if (won) {
          const held = this.held.get(key);
          if (held === undefined) this.held.set(key, [slot]);
          else held.push(slot);
          return { allowed: true, probe: true };
        }
      }
      const ttls = await Promise.all(Array.from({ length: slots }, (_, slot) => this.kv.ttl(this.keys.probe(key, slot))));
      const now = this.now();
      const freeInMs = Math.min(...ttls.map((ttl) => Math.max(ttl, 0)));
      view.probeBusyUntil = now + this.settings.cacheMs;
      view.probeFreeAt = now + freeInMs;
      return { allowed: false, probe: false, retryAfterMs: Math.max(1, freeInMs) };
    } catch (error) {
      this.onError(error);
      return ALLOWED;
    }
  }

  /** One Kv read shared by every concurrent caller; fails open. */
  private refresh(key: string): Promise<View> {
    const pending = this.refreshing.get(key);
    if (pending !== undefined) return pending;
    const generation = this.generations.get(key) ?? 0;
    const promise = this.kv
      .get(this.keys.open(key))
      .then(parseOpenRecord, (error: unknown) => {
        this.onError(error);
        return null;
      })
      .then((open) => {
        const view: View = { open, expiresAt: this.now() + this.settings.cacheMs };
        // A local write since the read started is newer than what was read.
        if ((this.generations.get(key) ?? 0) !== generation) return this.views.get(key) ?? view;
        this.views.set(key, view);
        return view;
      })
      .finally(() => this.refreshing.delete(key));
    this.refreshing.set(key, promise);
    return promise;
  }

  private setView(key: string, open: OpenRecord | null): void {
    this.generations.set(key, (this.generations.get(key) ?? 0) + 1);
    this.views.set(key, { open, expiresAt: this.now() + this.settings.cacheMs });
  }

  private forgetView(key: string): void {
    this.generations.set(key, (this.generations.get(key) ?? 0) + 1);
    this.views.delete(key);
  }

  private async recordOutcome(key: string, outcome: BreakerOutcome): Promise<void> {
    const now = this.now();
    const { windowMs } = this.settings;
    const bucket = bucketOf(now, windowMs);
    const bucketTtl = { ttlMs: 2 * windowMs + 1000 };
    if (outcome === 'success') {
      // Two commands sent together: one round trip.
      await Promise.all([
        this.kv.increment(this.keys.bucket(key, bucket, 'success'), 1, bucketTtl),
        this.kv.delete(this.keys.consecutive(key)),
      ]);
      return;
    }
    const [failures, consecutive, successes, previousFailures, previousSuccesses] = await Promise.all([
      this.kv.increment(this.keys.bucket(key, bucket, 'failure'), 1, bucketTtl),
      // The TTL only forgets a streak nobody ended (no traffic since): 10 windows after it began.
      this.kv.increment(this.keys.consecutive(key), 1, { ttlMs: 10 * windowMs }),
      this.kv.get(this.keys.bucket(key, bucket, 'success')),
      this.kv.get(this.keys.bucket(key, bucket - 1, 'failure')),
      this.kv.get(this.keys.bucket(key, bucket - 1, 'success')),
    ]);
    const view = this.views.get(key);
    // Late failures of calls admitted before the open need no second trip.
    if (view !== undefined && view.open !== null && now < view.expiresAt) return;
    if (consecutive >= this.settings.consecutiveFailures) {
      await this.trip(key, 'consecutive_failures');
      return;
    }
    const failed = rollingCount(failures, toCount(previousFailures), now, windowMs);
    const total = failed + rollingCount(toCount(successes), toCount(previousSuccesses), now, windowMs);
    if (total >= this.settings.minimumRequests && failed / total >= this.settings.errorRatio) {
      await this.trip(key, 'error_ratio');
    }
  }

  private async trip(key: string, reason: TransitionReason): Promise<void> {
    const remembered = await this.kv.get(this.keys.level(key));
    const previous = remembered === null ? Number.NaN : Number(remembered);
    const level = Number.isInteger(previous) && previous >= 0 ? previous + 1 : 0;
    const record = this.openRecord(level);
    // setIfAbsent: when several instances trip at once, the first open wins and keeps its clock.
    const won = await this.kv.setIfAbsent(this.keys.open(key), JSON.stringify(record), { ttlMs: this.openRecordTtl(record) });
    if (!won) {
      this.forgetView(key);
      return;
    }
    this.setView(key, record);
    this.onTransition({ key, from: 'closed', to: 'open', reason, at: record.openedAt });
  }

  private async recordProbe(key: string, outcome: BreakerOutcome): Promise<void> {
    const slot = this.takeHeldSlot(key);
    try {
      const open = parseOpenRecord(await this.kv.get(this.keys.open(key)));
      const now = this.now();
      if (open === null || now < open.openedAt + open.cooldownMs) {
        // Closed by another probe or a reset, or already reopened by another probe: an ordinary outcome.
        await this.recordOutcome(key, outcome);
        return;
      }
      if (outcome === 'success') {
        // Delete the open record first: that alone is what closes the breaker for everyone.
        await this.kv.delete(this.keys.open(key));
        const bucket = bucketOf(now, this.settings.windowMs);
        await Promise.all([
          this.kv.set(this.keys.level(key), String(open.level), { ttlMs: this.settings.backoffMemoryMs }),
          this.kv.delete(this.keys.consecutive(key)),
          ...this.bucketKeys(key, bucket).map((bucketKey) => this.kv.delete(bucketKey)),
        ]);
        this.setView(key, null);
        this.onTransition({ key, from: 'half_open', to: 'closed', reason: 'probe_succeeded', at: now });
        return;
      }
      const record = this.openRecord(open.level + 1);
      await this.kv.set(this.keys.open(key), JSON.stringify(record), { ttlMs: this.openRecordTtl(record) });
      this.setView(key, record);
      this.onTransition({ key, from: 'half_open', to: 'open', reason: 'probe_failed', at: now });
    } finally {
      // Only after the new state is written, so nobody probes the old half-open record again.
      await this.releaseSlot(key, slot);
    }
  }

  private takeHeldSlot(key: string): number {
    const held = this.held.get(key);
    const slot = held?.pop() ?? 0;
    if (held !== undefined && held.length === 0) this.held.delete(key);
    return slot;
  }

  private async releaseSlot(key: string, slot: number): Promise<void> {
    await this.kv.delete(this.keys.probe(key, slot));
    const view = this.views.get(key);
    if (view !== undefined) view.probeBusyUntil = undefined;
  }

  private async resetOne(key: string): Promise<void> {
    const was = parseOpenRecord(await this.kv.get(this.keys.open(key)));
    const bucket = bucketOf(this.now(), this.settings.windowMs);
    await Promise.all([
      this.kv.delete(this.keys.open(key)),
      this.kv.delete(this.keys.level(key)),
      this.kv.delete(this.keys.consecutive(key)),
      ...this.bucketKeys(key, bucket).map((bucketKey) => this.kv.delete(bucketKey)),
      ...Array.from({ length: this.settings.halfOpenMaxProbes }, (_, slot) => this.kv.delete(this.keys.probe(key, slot))),
    ]);
    this.held.delete(key);
    this.setView(key, null);
    if (was !== null) this.onTransition({ key, from: stateOf(was, this.now()), to: 'closed', reason: 'reset', at: this.now() });
  }

  private bucketKeys(key: string, bucket: number): string[] {
    return [bucket, bucket - 1].flatMap((b) => [this.keys.bucket(key, b, 'success'), this.keys.bucket(key, b, 'failure')]);
  }

  private openRecord(level: number): OpenRecord {
    const { cooldownBaseMs, cooldownMaxMs } = this.settings;
    // 2^30 already exceeds any sane cap; bounding the exponent keeps the product finite.
    const cooldownMs = Math.min(cooldownBaseMs * 2 ** Math.min(level, 30), cooldownMaxMs);
    return { openedAt: this.now(), cooldownMs, level };
  }

  /**
   * The open record outlives its cooldown so that the next caller probes. If no traffic comes
   * for this long, the record expires and the breaker is simply closed again: with no calls
   * there is nothing to protect, and the thresholds will trip it again if the upstream is still down.
   */
  private openRecordTtl(record: OpenRecord): number {
    return record.cooldownMs + this.settings.openRecordGraceMs;
  }
}

function stateOf(open: OpenRecord | null, now: number): BreakerState {
  if (open === null) return 'closed';
  return now < open.openedAt + open.cooldownMs ? 'open' : 'half_open';
}

function toCount(raw: string | null): number {
  if (raw === null) return 0;
  const value = Number(raw);
  return Number.isFinite(value) ? value : 0;
}
