import type { ConsumeStep, CounterStep } from '@svc/kv';
import type { ReservationState } from './reservation.js';

/** A share of a stored reservation given back on its own: its once-only guard key's name, the tokens and micro-USD it gives back. */
export interface HeldShare {
  /** Unique per share (a batch id and the share's number): a share whose guard exists was given back already. */
  id: string;
  tokens: number;
  micros: number;
}

/**
 * The one `consumeAll` call that gives `share` back from the month counters `state` holds, guarded
 * so it applies at most once: its first step creates the share's guard counter at 1 and refuses
 * the whole call when the guard is already there. Missing month counters are skipped (they are
 * seeded from the ledger, which knows nothing of the hold).
 */
export function heldShareSteps(prefix: string, state: ReservationState, share: HeldShare): ConsumeStep[] {
  const month = state.month;
  if (month === null) return [];
  const steps: ConsumeStep[] = [{ kind: 'counter', key: `${prefix}held:${share.id}`, cost: 1, limit: 1, ttlMs: month.ttlMs, onMissing: 'create' }];
  const counter = (key: string, cost: number) => {
    if (cost !== 0) steps.push({ kind: 'counter', key, cost, onMissing: 'skip' } satisfies CounterStep);
  };
  counter(month.keys.usd, -share.micros);
  counter(month.keys.usdReserved, -share.micros);
  counter(month.keys.tokens, -share.tokens);
  counter(month.keys.tokensReserved, -share.tokens);
  if (month.keyKeys) {
    counter(month.keyKeys.usd, -share.micros);
    counter(month.keyKeys.usdReserved, -share.micros);
  }
  return steps;
}
