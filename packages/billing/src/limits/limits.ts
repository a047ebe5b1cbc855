import type { Caller, Organization } from '@svc/core';

/**
 * What one request is held to. Every limit is a positive number or null (unlimited; `undefined`
 * too for the per-key ones). A limit of 0 refuses everything.
 */
export interface Limits {
  /** Requests per minute for the organisation. */
  rpm: number | null;
  /** Tokens (prompt + completion) per minute for the organisation. */
  tpm: number | null;
  /** Requests per minute for the API key, on top of the organisation's. */
  keyRpm?: number | null;
  /** Tokens per minute for the API key, on top of the organisation's. */
  keyTpm?: number | null;
  /** Spend cap per calendar month (UTC), USD. */
  monthlyBudgetUsd: number | null;
  /** Spend cap of the API key per calendar month (UTC), USD, on top of the organisation's. */
  keyMonthlyBudgetUsd?: number | null;
  /** Tokens per calendar month (UTC). */
  tokenQuota: number | null;
}

/** The limits stored on an organisation row (no per-key limits). */
export function organizationLimits(org: Organization): Limits {
  return {
    rpm: org.rpmLimit,
    tpm: org.tpmLimit,
    monthlyBudgetUsd: org.monthlyBudgetUsd,
    tokenQuota: org.tokenQuota,
  };
}

/** What a caller's requests are held to: its organisation's limits and its key's own. */
export function callerLimits(caller: Caller): Limits {
  const limits = organizationLimits(caller.org);
  if (caller.keyLimits) {
    limits.keyRpm = caller.keyLimits.rpm;
    limits.keyTpm = caller.keyLimits.tpm;
    limits.keyMonthlyBudgetUsd = caller.keyLimits.monthlyBudgetUsd;
  }
  return limits;
}

/** The caller's request-per-minute limits alone: for calls that use no tokens and cost nothing (MCP tool calls). */
export function requestRateLimits(caller: Caller): Limits {
  const limits = callerLimits(caller);
  return { rpm: limits.rpm, tpm: null, keyRpm: limits.keyRpm ?? null, keyTpm: null, monthlyBudgetUsd: null, tokenQuota: null };
}

/**
 * The caller's month limits alone (budgets and token quota): for background calls that spend the
 * organisation's month but must not take its live traffic's requests or tokens per minute
 * (shadow judging's candidate and judge calls).
 */
export function monthLimits(caller: Caller): Limits {
  const limits = callerLimits(caller);
  return { rpm: null, tpm: null, keyRpm: null, keyTpm: null, monthlyBudgetUsd: limits.monthlyBudgetUsd, keyMonthlyBudgetUsd: limits.keyMonthlyBudgetUsd ?? null, tokenQuota: limits.tokenQuota };
}

export interface AdmitRequest {
  orgId: string;
  keyId: string;
  limits: Limits;
  /** Prompt tokens plus the completion tokens the request may produce (e.g. `max_tokens`). */
  estimatedTokens: number;
  /** The cost of those tokens, USD: an upper bound keeps spend within the budget. */
  estimatedCostUsd: number;
  /**
   * Background work (a batch line): admitted only while each RPM/TPM bucket keeps
   * {@link BACKGROUND_RESERVE} of its capacity for interactive requests afterwards.
   */
  background?: boolean;
  /**
   * The month budget and token quota were reserved for this request beforehand (a batch line
   * under its batch's hold): its estimate is counted in the month counters but not checked.
   */
  budgetHeld?: boolean;
}

/**
 * The share of each per-minute bucket background work leaves to interactive requests: a batch
 * never takes an organisation's or key's RPM/TPM below half, so its interactive traffic keeps at
 * least half a minute's allowance whatever a batch does, and takes the rest first when it needs it.
 */
export const BACKGROUND_RESERVE = 0.5;

/** What a request really used, reported once it is over. */
export interface ActualUsage {
  actualTokens: number;
  actualCostUsd: number;
}

/** An API key's month, as `keySpend()` reports it to the admin API. */
export interface KeyMonthSpend {
  /** `YYYY-MM`, UTC. */
  month: string;
  /** Settled spend, USD. */
  spentUsd: number;
  /** Held by requests still in progress, USD. */
  reservedUsd: number;
  budgetUsd: number | null;
}

/** An organisation's month, as `spend()` reports it to the admin API. */
export interface MonthSpend {
  /** `YYYY-MM`, UTC. */
  month: string;
  /** Settled spend, USD. */
  spentUsd: number;
  /** Held by requests still in progress, USD. */
  reservedUsd: number;
  /** Settled tokens. */
  tokens: number;
  /** Held by requests still in progress. */
  reservedTokens: number;
  budgetUsd: number | null;
  tokenQuota: number | null;
}

/** An organisation's usage of one month according to the usage ledger. */
export interface LedgerMonth {
  spentUsd: number;
  tokens: number;
}

export function hasRateLimits(limits: Limits): boolean {
  return limits.rpm != null || limits.tpm != null || limits.keyRpm != null || limits.keyTpm != null;
}

export function hasMonthLimits(limits: Limits): boolean {
  return limits.monthlyBudgetUsd != null || limits.tokenQuota != null || limits.keyMonthlyBudgetUsd != null;
}

/** RangeError unless `value` is a finite number >= 0 (token counts, USD amounts). */
export function checkAmount(name: string, value: number): void {
  if (!(value >= 0) || !Number.isFinite(value)) throw new RangeError(`${name} must be a finite number >= 0, got ${value}`);
}

/** Completion tokens assumed at admission for a request that sets no `max_tokens`. */
export const DEFAULT_COMPLETION_ESTIMATE = 1_000;

/**
 * Completion tokens a request is admitted for: its `max_tokens`, or when it sets none the default
 * estimate, but never more than the tightest per-minute token limit leaves after the prompt (at
 * least 1). Otherwise a one-word request under a TPM limit of 1,000 would need 1,005 tokens and be
 * refused for ever; the settlement charges what the answer really used. A request whose own
 * `max_tokens` exceeds the limit is still refused as larger than it.
 */
export function completionEstimate(limits: Limits, promptTokens: number, maxTokens: number | undefined): number {
  if (maxTokens !== undefined) return maxTokens;
  let room = DEFAULT_COMPLETION_ESTIMATE;
  for (const tpm of [limits.tpm, limits.keyTpm]) {
    if (tpm != null) room = Math.min(room, Math.floor(tpm) - promptTokens);
  }
  return Math.max(1, room);
}
