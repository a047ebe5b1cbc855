import { type CachedAnswer, deepFreeze } from '@svc/core';

/**
 * The private, deep-frozen copy of an answer that the cache hands out: a hit may be served to
 * many requests at once, so a caller that changes it must fail loudly rather than change what
 * the next caller gets. Undefined when `json` is not a stored answer (a foreign or corrupt value).
 */
export function readStoredAnswer(json: string): CachedAnswer | undefined {
  const value: unknown = JSON.parse(json);
  return isCachedAnswer(value) ? deepFreeze(value) : undefined;
}

function isCachedAnswer(value: unknown): value is CachedAnswer {
  if (!isRecord(value) || !isRecord(value.result) || !Array.isArray(value.result.choices)) return false;
  return (
    typeof value.model === 'string' &&
    typeof value.provider === 'string' &&
    typeof value.tier === 'string' &&
    typeof value.storedAt === 'number'
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
