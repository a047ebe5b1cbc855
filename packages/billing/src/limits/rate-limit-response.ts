import { type GatewayError, billingError, rateLimited } from '@svc/core';
import type { BucketStepResult, ConsumeAllResult, CounterStepResult } from '@svc/kv';
import { type AdmissionPlan, type BucketSlot, type LimitScope, MINUTE_MS, type MonthSlots } from './admission-plan.js';
import { toUsd } from './money.js';

type Dimension = 'requests' | 'tokens';

/**
 * OpenAI's `x-ratelimit-*` headers for the binding limit of each dimension (the refused one,
 * else the one with fewer tokens left, organisation before key): limit, remaining, and the
 * time until the bucket is full again (`reset`, as a duration such as `1s`, `6m0s`, `20ms`).
 */
export function rateLimitHeaders(plan: AdmissionPlan, result: ConsumeAllResult): Record<string, string> {
  const headers: Record<string, string> = {};
  addDimension(headers, 'requests', plan.requestBuckets, result);
  addDimension(headers, 'tokens', plan.tokenBuckets, result);
  return headers;
}

function addDimension(headers: Record<string, string>, dimension: Dimension, slots: BucketSlot[], result: ConsumeAllResult): void {
  let binding: { slot: BucketSlot; state: BucketStepResult } | undefined;
  for (const slot of slots) {
    const state = bucketState(result, slot);
    if (binding === undefined || (binding.state.fits && (!state.fits || state.remaining < binding.state.remaining))) {
      binding = { slot, state };
    }
  }
  if (binding === undefined) return;
  headers[`x-ratelimit-limit-${dimension}`] = String(binding.slot.step.capacity);
  headers[`x-ratelimit-remaining-${dimension}`] = String(Math.max(0, binding.state.remaining));
  headers[`x-ratelimit-reset-${dimension}`] = formatDuration(binding.state.resetMs);
}

/** A duration the way OpenAI writes its reset headers (Go's `time.Duration`): `20ms`, `1.5s`, `6m0s`, `1h0m0s`. */
export function formatDuration(ms: number): string {
  const whole = Math.max(0, Math.ceil(ms));
  if (whole < 1000) return `${whole}ms`;
  const hours = Math.floor(whole / 3_600_000);
  const minutes = Math.floor((whole % 3_600_000) / 60_000);
  const seconds = `${(whole % 60_000) / 1000}s`;
  if (hours > 0) return `${hours}h${minutes}m${seconds}`;
  return minutes > 0 ? `${minutes}m${seconds}` : seconds;
}

/** The error for a refused admission: 402 when a month allowance is exhausted (retrying will not help), else 429. */
export function refusalError(plan: AdmissionPlan, result: ConsumeAllResult): GatewayError {
  if (plan.month !== null) {
    const billing = monthRefusal(plan, plan.month, result);
    if (billing !== null) return billing;
  }
  return rateLimitError(plan, result);
}

function rateLimitError(plan: AdmissionPlan, result: ConsumeAllResult): GatewayError {
  const reasons: string[] = [];
  let retryAfterMs = 0;
  for (const [dimension, slots] of [
    ['requests', plan.requestBuckets],
    ['tokens', plan.tokenBuckets],
  ] as const) {
    for (const slot of slots) {
      const state = bucketState(result, slot);
      if (state.fits) continue;
      const limit = `${slot.step.capacity} ${dimension} per minute for this ${slot.scope}`;
      if (state.retryAfterMs < 0) {
        reasons.push(`the request needs about ${slot.step.cost} tokens, more than the limit of ${limit}`);
        retryAfterMs = Math.max(retryAfterMs, MINUTE_MS);
      } else {
        reasons.push(`limit of ${limit} reached`);
        retryAfterMs = Math.max(retryAfterMs, state.retryAfterMs);
      }
    }
  }
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return rateLimited(
    `Rate limit exceeded: ${reasons.join('; ')}. Try again in ${seconds} s.`,
    seconds,
    rateLimitHeaders(plan, result),
  );
}

/** 429 for a rate limit of 0: nothing is ever admitted. */
export function blockedError(dimension: Dimension): GatewayError {
  return rateLimited(`Rate limit exceeded: the limit is 0 ${dimension} per minute.`, MINUTE_MS / 1000, {
    [`x-ratelimit-limit-${dimension}`]: '0',
    [`x-ratelimit-remaining-${dimension}`]: '0',
  });
}

function monthRefusal(plan: AdmissionPlan, month: MonthSlots, result: ConsumeAllResult): GatewayError | null {
  const usd = counterState(result, month.usd);
  if (!usd.fits && month.budgetMicros !== null) {
    const reserved = counterState(result, month.usdReserved).value;
    return budgetExceeded(month.month.id, month.budgetMicros, usd.value - reserved, reserved, plan.micros);
  }
  if (month.key !== null) {
    const keyUsd = counterState(result, month.key.usd);
    if (!keyUsd.fits) {
      const reserved = counterState(result, month.key.usdReserved).value;
      return budgetExceeded(month.month.id, month.key.budgetMicros, keyUsd.value - reserved, reserved, plan.micros, 'API key');
    }
  }
  const tokens = counterState(result, month.tokens);
  if (!tokens.fits && month.tokenQuota !== null) {
    const reserved = counterState(result, month.tokensReserved).value;
    return quotaExceeded(month.month.id, month.tokenQuota, tokens.value - reserved, reserved, plan.tokens);
  }
  return null;
}

/**
 * 402 `billing_error` / `budget_exceeded`. Amounts in micro-USD. When what is spent and held
 * leaves room, the budget is not exceeded: the request's reserved maximum (its prompt and
 * `max_tokens` at the model's prices) is what does not fit, and the message says so.
 */
export function budgetExceeded(month: string, budget: number, spent: number, reserved: number, asked: number, scope: LimitScope = 'organisation'): GatewayError {
  const whose = scope === 'API key' ? 'of this API key ' : '';
  const used = Math.max(0, spent) + reserved;
  const state = `${dollars(budget)} for ${month}, ${dollars(Math.max(0, spent))} spent and ${dollars(reserved)} held by requests in progress`;
  if (used < budget) {
    return billingError(
      `This request's reserved maximum, ${dollars(asked)} (its prompt and max_tokens at the model's prices), does not fit the ` +
        `${dollars(budget - used)} left of the monthly budget ${whose}(${state}). Lower max_tokens, or wait for requests in progress to settle.`,
      'budget_exceeded',
    );
  }
  return billingError(`Monthly budget ${whose}exceeded: ${state}; this request may cost up to ${dollars(asked)}.`, 'budget_exceeded');
}

/** 402 `billing_error` / `quota_exceeded`; like the budget's, the message tells an exhausted quota from a request too large for what is left. */
export function quotaExceeded(month: string, quota: number, used: number, reserved: number, asked: number): GatewayError {
  const state = `${quota} tokens for ${month}, ${Math.max(0, used)} used and ${reserved} held by requests in progress`;
  const left = quota - Math.max(0, used) - reserved;
  if (left > 0) {
    return billingError(
      `This request may use up to ${asked} tokens (its prompt and max_tokens), more than the ${left} left of the monthly token quota (${state}). Lower max_tokens, or wait for requests in progress to settle.`,
      'quota_exceeded',
    );
  }
  return billingError(`Monthly token quota exceeded: ${state}; this request may use up to ${asked}.`, 'quota_exceeded');
}

function dollars(micros: number): string {
  const usd = toUsd(micros);
  return `$${usd >= 0.01 || usd === 0 ? usd.toFixed(2) : usd.toFixed(6)}`;
}

function bucketState(result: ConsumeAllResult, slot: BucketSlot): BucketStepResult {
  const state = result.steps[slot.index];
  if (state?.kind !== 'bucket') throw new Error(`step ${slot.index} is not a bucket`);
  return state;
}

function counterState(result: ConsumeAllResult, index: number): CounterStepResult {
  const state = result.steps[index];
  if (state?.kind !== 'counter') throw new Error(`step ${index} is not a counter`);
  return state;
}
