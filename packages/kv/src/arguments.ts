// Argument checks shared by every backend, so a bad argument fails the same way everywhere
// instead of surfacing as a backend-specific error (or, in memory, silently succeeding).

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
