import { AlertEvaluator } from '@svc/alerts';
import type { BreakerTransition, CircuitBreakers } from '@svc/resilience';
import type { RuntimeBase } from './runtime-base.js';

/**
 * The alert evaluator of this instance: SLOs judged every `SVC_ALERTS_INTERVAL_MS` (on one
 * instance per interval), breaker transitions and limit refusals turned into alerts. Started here;
 * `Runtime.close` stops it.
 */
export function createAlerts({ env, db, kv, kvNamespace, logger }: RuntimeBase, breakers: () => Pick<CircuitBreakers, 'status'>): AlertEvaluator {
  const alerts = new AlertEvaluator({
    store: db.alerts,
    slos: db.slos,
    kv,
    // The deployment's own: its evaluation lock (one instance a round) and refusal counts.
    keyPrefix: `${kvNamespace}alerts:`,
    breakerState: async (key) => (await breakers().status(key)).state,
    intervalMs: env.SVC_ALERTS_INTERVAL_MS,
    refusalsPerMinute: env.SVC_ALERT_REFUSALS_PER_MINUTE,
    onError: (error, what) => logger.warn({ err: error, what }, 'alerts: evaluation step failed'),
  });
  alerts.start();
  return alerts;
}

/** A breaker transition as an alert event (opened, or closed again); half-open is not one. */
export function breakerAlertEvent(alerts: AlertEvaluator, transition: BreakerTransition): void {
  if (transition.to === 'open') alerts.emit({ type: 'breaker_opened', key: transition.key, reason: transition.reason, at: transition.at });
  else if (transition.to === 'closed') alerts.emit({ type: 'breaker_closed', key: transition.key, reason: transition.reason, at: transition.at });
}
