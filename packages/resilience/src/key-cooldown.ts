import { isProviderError } from '@svc/core';
import type { Kv } from '@svc/kv';

/** Settings of {@link KeyCooldowns}. Durations in milliseconds. */
export interface KeyCooldownSettings {
  kv: Kv;
  /** Failures (401/402/429) within `failureWindowMs` that cool a key down. Default 3. */
  threshold?: number;
  /** How long a cooled key is passed over. Default 60 000. */
  cooldownMs?: number;
  /** Failures further apart than this do not add up. Default 60 000. */
  failureWindowMs?: number;
  /** How long `order()` trusts its local view; another instance's cooldown shows here within it. Default 250. */
  cacheMs?: number;
  /** Prefix of every Kv key. Default `keycool:`. */
  keyPrefix?: string;
  /** Clock in epoch ms. Default `Date.now`. */
  now?: () => number;
  /** Receives absorbed Kv errors (key selection fails open: every key stays available). */
  onError?: (error: unknown) => void;
}

/** One key of a pool as the control plane shows it. */
export interface KeyStatus {
  index: number;
  /** Epoch ms the cooldown ends; null when the key is available. */
  coolingUntil: number | null;
}

/**
 * Whether a provider error says something about the key rather than the model: 401/403
 * (authentication), 402 (billing), 429 (rate limit). These fall through to the next key of the
 * pool within the same request.
 */
export function isKeyFailure(error: unknown): boolean {
  return isProviderError(error) && (error.kind === 'rate_limit' || error.kind === 'billing' || error.kind === 'authentication');
}

interface PoolView {
  until: (number | null)[];
  expiresAt: number;
}

/**
 * Cooldowns of the keys of provider key pools, shared through a {@link Kv} so every instance
 * passes over the same exhausted key. Keys are identified by their index in the pool (the
 * secret never reaches the Kv).
 *
 * Counting is "failures within a window" rather than strictly consecutive: a success only
 * clears the count when this instance saw a failure of that key recently, so healthy traffic
 * costs no Kv write.
 */
export class KeyCooldowns {
  private readonly kv: Kv;
  private readonly threshold: number;
  private readonly cooldownMs: number;
  private readonly failureWindowMs: number;
  private readonly cacheMs: number;
  private readonly prefix: string;
  private readonly now: () => number;
  private readonly onError: (error: unknown) => void;
  private readonly views = new Map<string, PoolView>();
  private readonly reading = new Map<string, Promise<PoolView>>();
  private readonly turns = new Map<string, number>();
  /** `provider index` -> when this instance last saw that key fail. */
  private readonly recentFailures = new Map<string, number>();

  constructor(settings: KeyCooldownSettings) {
    this.kv = settings.kv;
    this.threshold = settings.threshold ?? 3;
    this.cooldownMs = settings.cooldownMs ?? 60_000;
    this.failureWindowMs = settings.failureWindowMs ?? 60_000;
    this.cacheMs = settings.cacheMs ?? 250;
    this.prefix = settings.keyPrefix ?? 'keycool:';
    this.now = settings.now ?? Date.now;
    this.onError = settings.onError ?? (() => {});
    if (!(Number.isInteger(this.threshold) && this.threshold > 0)) throw new RangeError(`threshold must be a positive integer, got ${this.threshold}`);
    if (!(this.cooldownMs > 0 && this.failureWindowMs > 0)) throw new RangeError('cooldownMs and failureWindowMs must be positive');
  }

  /**
   * Every key index of a pool of `keyCount` keys in the order to try them: available keys in
   * round-robin order, then the cooling ones, the soonest to recover first. Cooling keys come
   * last, never out: when the available ones fail for their own reasons (one 402s after another
   * 429ed), a cooling key may still answer, and refusing would turn a key problem into an outage.
   * Never rejects.
   */
  async order(provider: string, keyCount: number): Promise<number[]> {
    if (keyCount <= 0) return [];
    const view = await this.view(provider, keyCount);
    const turn = this.turns.get(provider) ?? 0;
    this.turns.set(provider, (turn + 1) % keyCount);
    const now = this.now();
    const ready: number[] = [];
    const cooling: number[] = [];
    for (let i = 0; i < keyCount; i++) {
      const index = (turn + i) % keyCount;
      const until = view.until[index] ?? null;
      if (until === null || until <= now) ready.push(index);
      else cooling.push(index);
    }
    return [...ready, ...cooling.sort((a, b) => (view.until[a] ?? 0) - (view.until[b] ?? 0))];
  }

  /**
   * Records a key failure (call it for {@link isKeyFailure} errors). With `retryAfterMs` (a 429
   * that named its wait) the key cools at once for that long, capped at `cooldownMs`. Resolves
   * true when this call started a cooldown. Never rejects.
   */
  async failure(provider: string, index: number, options: { retryAfterMs?: number } = {}): Promise<boolean> {
    const now = this.now();
    this.recentFailures.set(`${provider} ${index}`, now);
    try {
      if (options.retryAfterMs !== undefined && options.retryAfterMs > 0) {
        await this.coolDown(provider, index, Math.min(options.retryAfterMs, this.cooldownMs));
        return true;
      }
      const count = await this.kv.increment(this.failuresKey(provider, index), 1, { ttlMs: this.failureWindowMs });
      if (count < this.threshold) return false;
      await this.coolDown(provider, index, this.cooldownMs);
      return true;
    } catch (error) {
      this.onError(error);
      return false;
    }
  }

  /** Records a success; clears the failure count when this instance saw the key fail recently. Never rejects. */
  async success(provider: string, index: number): Promise<void> {
    const local = `${provider} ${index}`;
    const failedAt = this.recentFailures.get(local);
    if (failedAt === undefined) return;
    this.recentFailures.delete(local);
    if (this.now() - failedAt > this.failureWindowMs) return;
    try {
      await this.kv.delete(this.failuresKey(provider, index));
    } catch (error) {
      this.onError(error);
    }
  }

  /** Every key of the pool with its cooldown, read from the Kv. */
  async status(provider: string, keyCount: number): Promise<KeyStatus[]> {
    const until = await this.readUntil(provider, keyCount);
    const now = this.now();
    return until.map((value, index) => ({ index, coolingUntil: value !== null && value > now ? value : null }));
  }

  /** Ends the cooldown and clears the failure count of one key. Idempotent. */
  async reset(provider: string, index: number): Promise<void> {
    await Promise.all([this.kv.delete(this.untilKey(provider, index)), this.kv.delete(this.failuresKey(provider, index))]);
    this.recentFailures.delete(`${provider} ${index}`);
    this.views.delete(provider);
  }

  private async coolDown(provider: string, index: number, forMs: number): Promise<void> {
    const until = this.now() + forMs;
    await Promise.all([
      this.kv.set(this.untilKey(provider, index), String(until), { ttlMs: forMs }),
      this.kv.delete(this.failuresKey(provider, index)),
    ]);
    const view = this.views.get(provider);
    if (view !== undefined && index < view.until.length) view.until[index] = until;
  }

  private view(provider: string, keyCount: number): Promise<PoolView> {
    const cached = this.views.get(provider);
    if (cached !== undefined && cached.until.length === keyCount && this.now() < cached.expiresAt) return Promise.resolve(cached);
    const pending = this.reading.get(provider);
    if (pending !== undefined) return pending;
    const promise = this.readUntil(provider, keyCount)
      .catch((error: unknown) => {
        this.onError(error);
        return Array.from({ length: keyCount }, (): number | null => null);
      })
      .then((until) => {
        const view: PoolView = { until, expiresAt: this.now() + this.cacheMs };
        this.views.set(provider, view);
        return view;
      })
      .finally(() => this.reading.delete(provider));
    this.reading.set(provider, promise);
    return promise;
  }

  private async readUntil(provider: string, keyCount: number): Promise<(number | null)[]> {
    const raw = await Promise.all(Array.from({ length: keyCount }, (_, index) => this.kv.get(this.untilKey(provider, index))));
    return raw.map((value) => {
      const until = value === null ? Number.NaN : Number(value);
      return Number.isFinite(until) ? until : null;
    });
  }

  private untilKey(provider: string, index: number): string {
    return `${this.prefix}until:${index}:${provider}`;
  }

  private failuresKey(provider: string, index: number): string {
    return `${this.prefix}failures:${index}:${provider}`;
  }
}
