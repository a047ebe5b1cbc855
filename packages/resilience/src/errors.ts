import { type GatewayError, circuitBreakerOpen } from '@svc/core';

/**
 * The 503 `circuit_breaker_open` for a request whose every candidate was skipped by an open
 * breaker. `retry-after` is the soonest any of them may admit a probe.
 */
export function allBreakersOpen(skipped: readonly { key: string; retryAfterMs?: number }[]): GatewayError {
  const waits = skipped.map((one) => one.retryAfterMs).filter((ms): ms is number => ms !== undefined);
  const soonest = waits.length === 0 ? undefined : Math.min(...waits);
  const names = skipped.map((one) => one.key).join(', ');
  return circuitBreakerOpen(
    `Every candidate is temporarily unavailable (circuit breaker open: ${names || 'none'}).`,
    soonest === undefined ? undefined : soonest / 1000,
  );
}
