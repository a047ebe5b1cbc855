import { type ProviderErrorKind, isProviderError } from '@svc/core';

/** Settings of {@link retryDelay}. Durations in milliseconds. */
export interface RetryPolicy {
  /** Retries of the same candidate after the first attempt (0 disables). */
  maxRetries: number;
  /** Backoff base: attempt n waits up to `baseMs * 2^n` (full jitter) unless the upstream named a delay. */
  baseMs: number;
  /** Longest wait; a `retry-after` longer than this is not waited for (the next candidate is better). */
  capMs: number;
  /** Epoch ms the whole request must finish by; no retry whose wait would reach it. */
  deadline?: number;
  /** Time an attempt needs at least; a retry that would leave less before the deadline is skipped. Default 0. */
  minAttemptMs?: number;
  /** Kinds worth retrying on the same candidate. Default: rate_limit, overloaded, server, timeout, network. */
  kinds?: ReadonlySet<ProviderErrorKind>;
  /** Clock in epoch ms. Default `Date.now`. */
  now?: () => number;
  /** Uniform random in [0, 1) for the jitter. Default `Math.random`. */
  random?: () => number;
}

/**
 * Transient kinds: the same upstream may answer on a second try. Billing, authentication,
 * not_found and context_length never change on retry; they move to the next key or candidate.
 */
export const sameCandidateRetryKinds: ReadonlySet<ProviderErrorKind> = new Set(['rate_limit', 'overloaded', 'server', 'timeout', 'network']);

/**
 * How long to wait before retrying the same candidate after `error`, or undefined when it
 * should not be retried (not a transient provider error, retries used up, the upstream asked
 * for longer than `capMs`, or the wait would run into the deadline).
 *
 * `attempt` counts the retries already made (0 before the first retry). An upstream
 * `retry-after` (`ProviderError.retryAfterMs`) is honoured as given; otherwise the delay is
 * full-jitter exponential backoff.
 */
export function retryDelay(error: unknown, attempt: number, policy: RetryPolicy): number | undefined {
  if (!isProviderError(error) || !error.retryable) return undefined;
  if (!(policy.kinds ?? sameCandidateRetryKinds).has(error.kind)) return undefined;
  if (!(attempt >= 0 && attempt < policy.maxRetries)) return undefined;
  let delay: number;
  if (error.retryAfterMs !== undefined) {
    if (error.retryAfterMs > policy.capMs) return undefined;
    delay = Math.max(0, error.retryAfterMs);
  } else {
    const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** Math.min(attempt, 30));
    delay = Math.floor((policy.random ?? Math.random)() * ceiling);
  }
  if (policy.deadline !== undefined) {
    const remaining = policy.deadline - (policy.now ?? Date.now)();
    if (delay + (policy.minAttemptMs ?? 0) >= remaining) return undefined;
  }
  return delay;
}

/** Waits `ms`; rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
