import type { SvcOptions } from '@svc/core';

type Retry = { maxRetries: number; baseMs: number; capMs: number };

export interface ReliabilitySettings {
  /** Candidates tried at most. */
  maxAttempts: number;
  /** Retries of the last candidate left. */
  retry: Retry;
  /** Hedge slow first choices unless the request turns hedging off. */
  hedge: boolean;
}

/**
 * What `svc.reliability_level` buys (spec §svc orchestration block): `standard` runs the
 * deployment's settings; `high` tries one more candidate, retries the last one once more and
 * hedges; `critical` adds two of each. An explicit `enable_hedging: false` still wins.
 * Verification strength follows the level too (`verificationPlan`): `high` re-asks the same
 * model once when a JSON answer stays invalid, `critical` another model.
 */
export function reliabilitySettings(level: SvcOptions['reliabilityLevel'], retry: Retry, maxAttempts: number): ReliabilitySettings {
  if (level === undefined || level === 'standard') return { maxAttempts, retry, hedge: false };
  const extra = level === 'high' ? 1 : 2;
  return { maxAttempts: maxAttempts + extra, retry: { ...retry, maxRetries: retry.maxRetries + extra }, hedge: true };
}
