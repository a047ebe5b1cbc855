import { parseEnv } from '@svc/server';

/**
 * The in-process semantic store capacity the svc under test runs with: `SVC_SEMANTIC_MAX_ENTRIES`
 * as the gateway reads it (its own schema and default), so the bench never assumes a stale figure.
 */
export function semanticCapacity(value: string | undefined = process.env.SVC_SEMANTIC_MAX_ENTRIES): number {
  return Math.max(1, parseEnv({ SVC_SEMANTIC_MAX_ENTRIES: value }).SVC_SEMANTIC_MAX_ENTRIES);
}
