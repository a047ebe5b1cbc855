import { type Limiter, requestRateLimits } from '@svc/billing';
import type { Caller } from '@svc/core';

/**
 * Counts one MCP tool call against the caller's requests-per-minute limits (the organisation's
 * and the key's, shared with its model requests); a tool call uses no tokens and costs nothing, so
 * the token limits, budgets and quotas do not apply to it.
 *
 * @throws GatewayError 429 `rate_limit_exceeded` (with `retry-after`) when a request limit is spent.
 */
export async function admitToolCall(limiter: Pick<Limiter, 'admit'> | undefined, caller: Caller): Promise<void> {
  if (!limiter) return;
  const reservation = await limiter.admit({ orgId: caller.org.id, keyId: caller.keyId, limits: requestRateLimits(caller), estimatedTokens: 0, estimatedCostUsd: 0 });
  await reservation.settle({ actualTokens: 0, actualCostUsd: 0 });
}
