import type { BucketStep } from '@svc/kv';
import type { ReservationState } from './reservation.js';

const MONTH_KEYS = ['usd', 'usdReserved', 'tokens', 'tokensReserved'] as const;
const KEY_MONTH_KEYS = ['usd', 'usdReserved'] as const;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const holdsStrings = (value: unknown, keys: readonly string[]) => isRecord(value) && keys.every((key) => typeof value[key] === 'string');
const optional = (value: unknown, check: (value: unknown) => boolean) => value === undefined || check(value);

function isBucketStep(value: unknown): value is BucketStep {
  if (!isRecord(value)) return false;
  const { kind, key, cost, capacity, refillMs, force, reserve } = value;
  return kind === 'bucket' && typeof key === 'string' && Number.isSafeInteger(cost) && Number.isSafeInteger(capacity) && Number.isSafeInteger(refillMs) && optional(force, (flag) => typeof flag === 'boolean') && optional(reserve, Number.isSafeInteger);
}

function isMonth(value: unknown): boolean {
  if (value === null) return true;
  return isRecord(value) && holdsStrings(value.keys, MONTH_KEYS) && typeof value.ttlMs === 'number' && (value.keyKeys === null || holdsStrings(value.keyKeys, KEY_MONTH_KEYS));
}

/**
 * Whether stored JSON (a batch's hold, a native part's reservation, written by `Reservation.held`)
 * still has the shape of a {@link ReservationState}: read back before the limiter resumes it or
 * gives a share of it back, so a row written otherwise (by hand, by another release) is refused
 * rather than resumed with missing keys.
 */
export function isReservationState(value: unknown): value is ReservationState {
  if (!isRecord(value)) return false;
  const { tokenBuckets, month, tokens, micros, headers } = value;
  return (
    Array.isArray(tokenBuckets) &&
    tokenBuckets.every(isBucketStep) &&
    isMonth(month) &&
    Number.isFinite(tokens) &&
    Number.isFinite(micros) &&
    isRecord(headers) &&
    Object.values(headers).every((header) => typeof header === 'string')
  );
}
