/**
 * What request-path components report for alerting. Breakers report their state changes (made
 * by this instance), the limiter every refused request.
 */
export type AlertEvent =
  | { type: 'breaker_opened'; key: string; reason: string; at: number }
  | { type: 'breaker_closed'; key: string; reason: string; at: number }
  | { type: 'limit_refused'; orgId: string; kind: 'rate' | 'budget' | 'quota' };

/** Where events go. `emit` returns at once and never throws: it runs on the request path. */
export interface AlertEvents {
  emit(event: AlertEvent): void;
}
