import type { GatewayError } from '@svc/core';

/** Which allowance refused a request: a rate limit (429), the monthly budget or the token quota (402). */
export type RefusalKind = 'rate' | 'budget' | 'quota';

/** A request the limiter refused, as `LimiterSettings.onRefusal` reports it. */
export interface LimitRefusal {
  orgId: string;
  keyId: string;
  kind: RefusalKind;
}

/** The allowance behind a refusal error of the limiter. */
export function refusalKind(error: GatewayError): RefusalKind {
  if (error.status !== 402) return 'rate';
  return error.code === 'quota_exceeded' ? 'quota' : 'budget';
}
