import { NOT_A_BUCKET } from './arguments.js';
import type { BucketStep, BucketStepResult } from './interface.js';

// The token-bucket arithmetic of the memory Kv; redis-scripts.ts (CONSUME_ALL) mirrors it line
// for line. A bucket is stored as `<level>|<updated at, epoch µs>`: the level is a small float,
// so taking whole tokens from it is exact, where a theoretical arrival time in epoch ms would
// round at every step.

/** Slack for float refills: a level of 0.9999999999 tokens counts as 1. */
const EPSILON = 1e-9;

/** Whole ms, rounded up, but not for float noise: 1.0000000000002 ms is 1 ms. */
function ceilMs(ms: number): number {
  return Math.ceil(ms - 1e-6);
}

/** The level of a stored bucket at `nowUs`, refilled for the time since it was written. */
export function bucketLevel(stored: string | null, step: BucketStep, nowUs: number): number {
  if (stored === null) return step.capacity;
  const separator = stored.indexOf('|');
  const level = Number(stored.slice(0, separator));
  const updatedUs = Number(stored.slice(separator + 1));
  if (separator <= 0 || !Number.isFinite(level) || !Number.isFinite(updatedUs)) throw new Error(NOT_A_BUCKET);
  return Math.min(step.capacity, level + (Math.max(0, nowUs - updatedUs) * step.capacity) / (step.refillMs * 1000));
}

export interface BucketTake {
  fits: boolean;
  /** The level once the step is applied (the same level when it does not fit). */
  after: number;
  retryAfterMs: number;
}

/** Whether `step` fits a bucket at `level`, and the level it leaves. */
export function takeFromBucket(step: BucketStep, level: number): BucketTake {
  const { cost, capacity, refillMs } = step;
  const needed = cost + (step.reserve ?? 0);
  const fits = step.force === true || cost <= 0 || needed <= level + EPSILON;
  if (!fits) {
    const retryAfterMs = needed > capacity ? -1 : ceilMs(((needed - level) * refillMs) / capacity);
    return { fits, after: level, retryAfterMs };
  }
  return { fits, after: cost < 0 ? Math.min(capacity, level - cost) : level - cost, retryAfterMs: 0 };
}

/** Ms until a bucket at `level` is full: 0 when full (its key can go), at least 1 otherwise. */
export function msUntilFull(step: BucketStep, level: number): number {
  if (level >= step.capacity - EPSILON) return 0;
  return Math.max(1, ceilMs(((step.capacity - level) * step.refillMs) / step.capacity));
}

export function bucketResult(step: BucketStep, level: number, take: BucketTake): BucketStepResult {
  return {
    kind: 'bucket',
    fits: take.fits,
    remaining: Math.floor(level + EPSILON),
    resetMs: msUntilFull(step, level),
    retryAfterMs: take.retryAfterMs,
  };
}

export function formatBucket(level: number, nowUs: number): string {
  return `${level}|${nowUs}`;
}
