import type { AlertEvaluator } from '@svc/alerts';
import { CircuitBreakers } from '@svc/resilience';
import { BREAKER_STATE } from '@svc/telemetry';
import { breakerAlertEvent } from './alerts.js';
import type { RuntimeBase } from './runtime-base.js';

/** Circuit breakers per model slug, shared through the kv; each transition is a metric, a log line and an alert event. */
export function createBreakers({ env, kv, kvNamespace, metrics, logger }: RuntimeBase, alerts: AlertEvaluator): CircuitBreakers {
  return new CircuitBreakers({
    kv,
    // The deployment's own: another deployment's failures (its keys, its endpoints) open none of these.
    keyPrefix: `${kvNamespace}breaker:`,
    consecutiveFailures: Math.max(1, env.SVC_BREAKER_CONSECUTIVE_FAILURES),
    cooldownBaseMs: env.SVC_BREAKER_COOLDOWN_MS,
    // Relapses double the cooldown up to 5 min, or up to the first cooldown when that is longer.
    cooldownMaxMs: Math.max(300_000, env.SVC_BREAKER_COOLDOWN_MS),
    onTransition: (transition) => {
      const slash = transition.key.indexOf('/');
      metrics.breakerState.set({ provider: transition.key.slice(0, slash), model: transition.key }, transition.to === 'half_open' ? BREAKER_STATE.halfOpen : BREAKER_STATE[transition.to]);
      logger.warn({ breaker: transition.key, from: transition.from, to: transition.to, reason: transition.reason }, 'circuit breaker transition');
      breakerAlertEvent(alerts, transition);
    },
    onError: (error) => logger.error({ err: error }, 'circuit breaker state unavailable; admitting calls'),
  });
}
