// Argument checks shared by every backend, so a bad argument fails the same way everywhere
// instead of surfacing as a backend-specific error (or, in memory, silently succeeding).

import type { ConsumeStep } from './interface.js';

/** A positive TTL in whole milliseconds (Redis `PX` takes integers). */
export function toTtlMs(ttlMs: number): number {
  if (!(ttlMs > 0) || !Number.isFinite(ttlMs)) {
    throw new RangeError(`ttlMs must be a positive finite number, got ${ttlMs}`);
  }
  return Math.ceil(ttlMs);
}

export function checkIncrement(by: number): void {
  if (!Number.isSafeInteger(by)) throw new RangeError(`increment must be a safe integer, got ${by}`);
}

export function checkWindow(cost: number, limit: number, windowMs: number): void {
  if (!Number.isSafeInteger(cost) || cost < 0) {
    throw new RangeError(`cost must be a non-negative integer, got ${cost}`);
  }
  if (!Number.isSafeInteger(limit) || limit < 0) {
    throw new RangeError(`limit must be a non-negative integer, got ${limit}`);
  }
  if (!Number.isSafeInteger(windowMs) || windowMs <= 0) {
    throw new RangeError(`windowMs must be a positive integer, got ${windowMs}`);
  }
}

export function checkFields(fields: Record<string, string>): void {
  for (const _ in fields) return;
  throw new RangeError('stream entry fields must not be empty');
}

const STREAM_ID = /^\d+(-\d+)?$/;

export function checkStreamId(id: string): void {
  if (!STREAM_ID.test(id)) throw new RangeError(`invalid stream id '${id}'`);
}

export const WRONGTYPE = 'WRONGTYPE Operation against a key holding the wrong kind of value';
export const NOT_INTEGER = 'ERR value is not an integer or out of range';

const ON_MISSING = new Set(['create', 'skip', 'refuse']);

/** Checks every step of `consumeAll` before anything is read, so a bad step changes nothing. */
export function checkSteps(steps: readonly ConsumeStep[]): void {
  const keys = new Set<string>();
  for (const step of steps) {
    if (keys.has(step.key)) throw new RangeError(`consumeAll keys must be distinct, '${step.key}' repeats`);
    keys.add(step.key);
    if (!Number.isSafeInteger(step.cost)) throw new RangeError(`cost must be a safe integer, got ${step.cost}`);
    if (step.kind === 'bucket') {
      if (!Number.isSafeInteger(step.capacity) || step.capacity <= 0) {
        throw new RangeError(`capacity must be a positive integer, got ${step.capacity}`);
      }
      if (!Number.isSafeInteger(step.refillMs) || step.refillMs <= 0) {
        throw new RangeError(`refillMs must be a positive integer, got ${step.refillMs}`);
      }
      if (step.reserve !== undefined && (!Number.isSafeInteger(step.reserve) || step.reserve < 0)) {
        throw new RangeError(`reserve must be a non-negative integer, got ${step.reserve}`);
      }
    } else if (step.kind === 'counter') {
      if (step.limit !== undefined && !Number.isSafeInteger(step.limit)) {
        throw new RangeError(`limit must be a safe integer, got ${step.limit}`);
      }
      if (step.ttlMs !== undefined) toTtlMs(step.ttlMs);
      if (step.onMissing !== undefined && !ON_MISSING.has(step.onMissing)) {
        throw new RangeError(`onMissing must be create, skip or refuse, got ${step.onMissing}`);
      }
    } else {
      throw new RangeError(`unknown step kind '${(step as { kind: unknown }).kind}'`);
    }
  }
}

export const NOT_A_BUCKET = 'ERR value is not a token bucket';
