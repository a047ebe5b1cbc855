import type { Authenticator, AuthStore } from '@svc/auth';
import type { CircuitBreakers, HedgeStats, LatencyTracker } from '@svc/resilience';
import type { Readiness } from '@svc/runtime';
import type { Logger, Metrics } from '@svc/telemetry';

/** What the control-plane app needs; a Runtime provides all of it. */
export interface ControlPlaneDeps {
  authenticator: Authenticator;
  /** Organisations and keys (the relational store). */
  db: AuthStore;
  /** Circuit breakers (the same instances the inference pipeline consults). */
  breakers: Pick<CircuitBreakers, 'list' | 'reset'>;
  /** Hedging counters, learned latencies and the run-time default. */
  hedging: { latency: Pick<LatencyTracker, 'snapshot'>; stats: Pick<HedgeStats, 'snapshot'>; config: { enabledByDefault: boolean } };
  metrics: Metrics;
  logger: Logger;
  readiness(): Promise<Readiness>;
  maxBodyBytes: number;
}
