import type { Authenticator, AuthStore } from '@svc/auth';
import type { DecisionRepository } from '@svc/db';
import type { CircuitBreakers, HedgeStats, LatencyTracker } from '@svc/resilience';
import type { Readiness, Runtime } from '@svc/runtime';
import type { Logger, Metrics } from '@svc/telemetry';

/** What the control-plane app needs; a Runtime provides all of it. */
export interface ControlPlaneDeps {
  authenticator: Authenticator;
  /** Organisations, keys and the routing decision log (the relational store). */
  db: AuthStore & { decisions: Pick<DecisionRepository, 'get' | 'list'> };
  /** Circuit breakers (the same instances the inference pipeline consults). */
  breakers: Pick<CircuitBreakers, 'list' | 'reset'>;
  /** Hedging counters, learned latencies and the run-time default. */
  hedging: { latency: Pick<LatencyTracker, 'snapshot'>; stats: Pick<HedgeStats, 'snapshot'>; config: { enabledByDefault: boolean } };
  /** Arm-collapse alarm thresholds of `GET /v1/admin/routing/diversity` (deployment configuration). */
  diversity: Runtime['diversity'];
  metrics: Metrics;
  logger: Logger;
  readiness(): Promise<Readiness>;
  maxBodyBytes: number;
}
