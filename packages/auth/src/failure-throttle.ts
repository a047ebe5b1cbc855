import { createHash } from 'node:crypto';
import { type GatewayError, rateLimited } from '@svc/core';
import type { ConsumeStep, Kv } from '@svc/kv';

/** A token bucket of failures: `failures` at once, refilled from empty to full in `perMs`. */
export interface FailureLimit {
  failures: number;
  perMs: number;
}

/** Who failed: the client's address and what was tried (a key's prefix, an e-mail, a credential id). */
export interface Attempt {
  /** The client's address; undefined when unknown (an in-process call). */
  source?: string | undefined;
  /** Hashed before it is stored, so a master key's first characters never reach the kv. */
  subject?: string | undefined;
}

export interface FailureThrottleSettings {
  /** Shared by every instance (Redis when configured), so failures count across the fleet. */
  kv: Pick<Kv, 'consumeAll'>;
  /** What fails (`api_key`, `login`, `enrollment`): a namespace of its own in the kv. */
  name: string;
  perSource: FailureLimit;
  perSubject: FailureLimit;
  /** Blocks remembered on this instance (the oldest go first). Default 10,000. */
  maxBlocked?: number;
  now?: () => number;
  /** The kv failed: the attempt is not counted (a Redis outage must not lock everyone out). */
  onError?: (error: unknown) => void;
}

const hashed = (value: string) => createHash('sha256').update(value).digest('hex').slice(0, 32);

/**
 * Throttles failed authentication: failures are counted per source address and per subject in
 * token buckets in the shared kv, one round trip per failure; success is never counted. A source
 * or subject over its limit is blocked until a failure fits again, and this instance remembers the
 * block, so every attempt then (a right one too, or guessing would go on) is refused without I/O.
 * Another instance learns of a block with its first failure there.
 */
export class FailureThrottle {
  private readonly blocks = new Map<string, number>();
  private readonly now: () => number;
  private readonly maxBlocked: number;

  constructor(private readonly settings: FailureThrottleSettings) {
    this.now = settings.now ?? Date.now;
    this.maxBlocked = settings.maxBlocked ?? 10_000;
  }

  /** Whether this instance remembers any block (when not, {@link blockedFor} is 0 for everyone). */
  get blocking(): boolean {
    return this.blocks.size > 0;
  }

  /** Ms until `attempt` may be made again, from this instance's memory (no I/O); 0 when it may. */
  blockedFor(attempt: Attempt): number {
    if (this.blocks.size === 0) return 0;
    const now = this.now();
    let wait = 0;
    for (const key of this.keys(attempt)) {
      const until = this.blocks.get(key);
      if (until === undefined) continue;
      if (until <= now) this.blocks.delete(key);
      else wait = Math.max(wait, until - now);
    }
    return wait;
  }

  /** Counts a failed attempt; resolves to the ms to wait when it went over a limit (then blocked here), else 0. */
  async fail(attempt: Attempt): Promise<number> {
    const keys = this.keys(attempt);
    if (keys.length === 0) return 0;
    const limits = keys.map((key) => (key.startsWith('s:') ? this.settings.perSource : this.settings.perSubject));
    const steps: ConsumeStep[] = keys.map((key, i) => ({ kind: 'bucket', key: `{authfail}:${this.settings.name}:${key}`, cost: 1, capacity: limits[i]!.failures, refillMs: limits[i]!.perMs }));
    let wait = 0;
    try {
      const result = await this.settings.kv.consumeAll(steps);
      if (result.admitted) return 0;
      result.steps.forEach((step, i) => {
        if (step.kind !== 'bucket' || step.fits) return;
        const ms = step.retryAfterMs > 0 ? step.retryAfterMs : limits[i]!.perMs;
        this.block(keys[i]!, ms);
        wait = Math.max(wait, ms);
      });
    } catch (error) {
      this.settings.onError?.(error);
    }
    return wait;
  }

  /** Refuses `attempt` with 429 and `retry-after` when it is blocked here. */
  check(attempt: Attempt, what: string): void {
    const wait = this.blockedFor(attempt);
    if (wait > 0) throw tooManyFailures(what, wait);
  }

  /**
   * Runs `run` unless `attempt` is blocked here (429). When it rejects with an error `isFailure`
   * accepts, the failure is counted: past the limit the answer is the 429 instead of the error.
   */
  async guard<T>(attempt: Attempt, what: string, run: () => Promise<T>, isFailure: (error: unknown) => boolean): Promise<T> {
    this.check(attempt, what);
    try {
      return await run();
    } catch (error) {
      if (!isFailure(error)) throw error;
      const wait = await this.fail(attempt);
      throw wait > 0 ? tooManyFailures(what, wait) : error;
    }
  }

  private keys(attempt: Attempt): string[] {
    const keys: string[] = [];
    if (attempt.source) keys.push(`s:${attempt.source}`);
    if (attempt.subject) keys.push(`p:${hashed(attempt.subject)}`);
    return keys;
  }

  private block(key: string, ms: number): void {
    this.blocks.delete(key);
    this.blocks.set(key, this.now() + ms);
    if (this.blocks.size > this.maxBlocked) this.blocks.delete(this.blocks.keys().next().value!);
  }
}

/** 429 `rate_limit_error`: too many failed attempts of `what`, with `retry-after`. */
export function tooManyFailures(what: string, waitMs: number): GatewayError {
  return rateLimited(`Too many failed ${what} from this address or for this credential: retry after ${Math.max(1, Math.ceil(waitMs / 1000))} s.`, waitMs / 1000);
}
