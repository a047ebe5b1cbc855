/**
 * Sliding-window counting from two fixed buckets (the approach of Cloudflare's rate limiter):
 * the previous bucket counts in proportion to how much of it still overlaps the window that
 * ends now. Two integer counters per outcome give a rolling figure without storing samples,
 * and each counter is one atomic `increment` in the Kv.
 */

/** Bucket number that `now` falls in. */
export function bucketOf(now: number, windowMs: number): number {
  return Math.floor(now / windowMs);
}

/** Weight (0..1] of the previous bucket for an estimate of the window ending at `now`. */
export function previousWeight(now: number, windowMs: number): number {
  return 1 - (now - bucketOf(now, windowMs) * windowMs) / windowMs;
}

/** Rolling estimate over the window ending at `now`. */
export function rollingCount(current: number, previous: number, now: number, windowMs: number): number {
  return current + previous * previousWeight(now, windowMs);
}
