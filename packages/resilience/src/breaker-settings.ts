import type { Kv } from '@svc/kv';
import type { BreakerTransition } from './breaker-types.js';

/** Settings of `CircuitBreakers`. Durations in milliseconds. */
export interface BreakerSettings {
  /** Shared state: the Redis Kv when instances must agree, the in-process one otherwise. */
  kv: Kv;
  /** Rolling window for the error ratio (sliding estimate over two fixed buckets). Default 30 000. */
  windowMs?: number;
  /** Outcomes the window must hold before the error ratio can open the breaker. Default 20. */
  minimumRequests?: number;
  /** Failure ratio (0 < r <= 1) that opens the breaker once `minimumRequests` is met. Default 0.5. */
  errorRatio?: number;
  /** Failures in a row that open the breaker regardless of the ratio. Default 5. */
  consecutiveFailures?: number;
  /** Cooldown of a first open. Default 5 000. */
  cooldownBaseMs?: number;
  /** Cap of the doubling cooldown. Default 300 000 (5 min). */
  cooldownMaxMs?: number;
  /** How long a closed breaker remembers its last backoff level, so a relapse waits longer. Default 600 000. */
  backoffMemoryMs?: number;
  /** Concurrent half-open probes across all instances. Default 1. */
  halfOpenMaxProbes?: number;
  /** A probe slot whose holder never reports frees after this long. Default 30 000. */
  probeTimeoutMs?: number;
  /**
   * How long `allow()` trusts its local view of a breaker before reading the Kv again: the bound
   * on how stale another instance's change can look here. 0 reads on every call. Default 250.
   */
  cacheMs?: number;
  /** How long an open record outlives its cooldown when nobody probes. Default 900 000. */
  openRecordGraceMs?: number;
  /** Prefix of every Kv key. Default `breaker:`. */
  keyPrefix?: string;
  /** Clock in epoch ms; inject a fake one in tests. Default `Date.now`. */
  now?: () => number;
  /** Receives Kv errors that `allow()`/`record()` absorbed (they fail open). */
  onError?: (error: unknown) => void;
  /** State changes made by this instance, for metrics and logs. */
  onTransition?: (transition: BreakerTransition) => void;
}

export type ResolvedBreakerSettings = Required<
  Omit<BreakerSettings, 'kv' | 'now' | 'onError' | 'onTransition'>
>;

export function resolveBreakerSettings(settings: BreakerSettings): ResolvedBreakerSettings {
  const resolved: ResolvedBreakerSettings = {
    windowMs: settings.windowMs ?? 30_000,
    minimumRequests: settings.minimumRequests ?? 20,
    errorRatio: settings.errorRatio ?? 0.5,
    consecutiveFailures: settings.consecutiveFailures ?? 5,
    cooldownBaseMs: settings.cooldownBaseMs ?? 5_000,
    cooldownMaxMs: settings.cooldownMaxMs ?? 300_000,
    backoffMemoryMs: settings.backoffMemoryMs ?? 600_000,
    halfOpenMaxProbes: settings.halfOpenMaxProbes ?? 1,
    probeTimeoutMs: settings.probeTimeoutMs ?? 30_000,
    cacheMs: settings.cacheMs ?? 250,
    openRecordGraceMs: settings.openRecordGraceMs ?? 900_000,
    keyPrefix: settings.keyPrefix ?? 'breaker:',
  };
  positive('windowMs', resolved.windowMs);
  positive('cooldownBaseMs', resolved.cooldownBaseMs);
  positive('probeTimeoutMs', resolved.probeTimeoutMs);
  positive('backoffMemoryMs', resolved.backoffMemoryMs);
  positive('openRecordGraceMs', resolved.openRecordGraceMs);
  positiveInteger('consecutiveFailures', resolved.consecutiveFailures);
  positiveInteger('halfOpenMaxProbes', resolved.halfOpenMaxProbes);
  if (!Number.isInteger(resolved.minimumRequests) || resolved.minimumRequests < 0) {
    throw new RangeError(`minimumRequests must be a non-negative integer, got ${resolved.minimumRequests}`);
  }
  if (!(resolved.errorRatio > 0 && resolved.errorRatio <= 1)) {
    throw new RangeError(`errorRatio must be in (0, 1], got ${resolved.errorRatio}`);
  }
  if (!(resolved.cooldownMaxMs >= resolved.cooldownBaseMs)) {
    throw new RangeError(`cooldownMaxMs (${resolved.cooldownMaxMs}) must be at least cooldownBaseMs (${resolved.cooldownBaseMs})`);
  }
  if (!(resolved.cacheMs >= 0)) throw new RangeError(`cacheMs must be >= 0, got ${resolved.cacheMs}`);
  return resolved;
}

function positive(name: string, value: number): void {
  if (!(Number.isFinite(value) && value > 0)) throw new RangeError(`${name} must be a positive number, got ${value}`);
}

function positiveInteger(name: string, value: number): void {
  if (!(Number.isInteger(value) && value > 0)) throw new RangeError(`${name} must be a positive integer, got ${value}`);
}
