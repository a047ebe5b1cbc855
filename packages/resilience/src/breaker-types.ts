/** Types of the circuit breakers (see `CircuitBreakers` in breaker.ts). */

export type BreakerState = 'closed' | 'open' | 'half_open';

/** What the caller observed. Record failures only for kinds that say something about the upstream (retryable kinds), never for caller faults. */
export type BreakerOutcome = 'success' | 'failure';

/** The answer of `CircuitBreakers.allow`. */
export interface Admission {
  /** Whether the candidate may be called now. */
  readonly allowed: boolean;
  /** This call is the half-open probe: report its outcome with `record(key, outcome, { probe: true })`. */
  readonly probe: boolean;
  /** When refused: ms until the breaker may admit a probe (an upper bound while another probe runs). */
  readonly retryAfterMs?: number;
}

/** One breaker as the control plane shows it. Times are epoch ms. */
export interface BreakerStatus {
  key: string;
  state: BreakerState;
  /** Failures in the rolling window (sliding estimate, rounded). */
  failures: number;
  /** Successes in the rolling window (sliding estimate, rounded). */
  successes: number;
  consecutiveFailures: number;
  /** When the current open began; null while closed. */
  openedAt: number | null;
  /** When the breaker admits (or admitted) a probe; null while closed. */
  nextProbeAt: number | null;
  /** Cooldown of the current open (doubles with each reopen, capped); null while closed. */
  cooldownMs: number | null;
}

export type TransitionReason = 'consecutive_failures' | 'error_ratio' | 'probe_succeeded' | 'probe_failed' | 'reset';

/** A state change made by this instance (other instances report their own). */
export interface BreakerTransition {
  key: string;
  from: BreakerState;
  to: BreakerState;
  reason: TransitionReason;
  /** Epoch ms. */
  at: number;
}
