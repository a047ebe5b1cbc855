import type { BucketStep, ConsumeStep, CounterStep } from '@svc/kv';
import type { CalendarMonth } from './calendar-month.js';
import { type KeyMonthKeys, type MonthKeys, keyMonthKeys, monthKeys, rateKeys } from './kv-keys.js';
import { type AdmitRequest, BACKGROUND_RESERVE } from './limits.js';
import { reserveMicros, spendMicros } from './money.js';

/** Rate limits are per minute: a bucket of `limit` tokens refilled from empty to full in a minute. */
export const MINUTE_MS = 60_000;

export type LimitScope = 'organisation' | 'API key';

/** A rate-limit bucket of the plan and where its step sits in `steps`. */
export interface BucketSlot {
  index: number;
  scope: LimitScope;
  step: BucketStep;
}

/** The month counters of the plan, each the index of its step in `steps`. */
export interface MonthSlots {
  month: CalendarMonth;
  keys: MonthKeys;
  /** Expiry of counters this admission creates, ms. */
  ttlMs: number;
  usd: number;
  usdReserved: number;
  tokens: number;
  tokensReserved: number;
  budgetMicros: number | null;
  tokenQuota: number | null;
  /** The API key's own budget counters, when it has a budget. */
  key: { keys: KeyMonthKeys; usd: number; usdReserved: number; budgetMicros: number } | null;
}

/** The one `consumeAll` call that admits a request, and how to read its result. */
export interface AdmissionPlan {
  steps: ConsumeStep[];
  requestBuckets: BucketSlot[];
  tokenBuckets: BucketSlot[];
  month: MonthSlots | null;
  /** Tokens held by the reservation: at least 1, so an exhausted allowance refuses every request. */
  tokens: number;
  /** Micro-USD held by the reservation: at least 1, for the same reason. */
  micros: number;
}

export interface PlanContext {
  prefix: string;
  /** The current month and the expiry of its counters, when the request has a budget or quota. */
  month: { month: CalendarMonth; ttlMs: number } | null;
}

/** Positive whole capacities (a limit of 2.5 RPM admits 2), null for unlimited. */
export function capacityOf(limit: number | null | undefined): number | null {
  return limit == null ? null : Math.max(0, Math.floor(limit));
}

/**
 * What background work leaves in a bucket: {@link BACKGROUND_RESERVE} of its capacity, less where
 * the cost itself is larger than the rest, so a large line still runs once the bucket is full.
 */
function backgroundReserve(capacity: number, cost: number): number {
  return Math.max(0, Math.min(Math.floor(capacity * BACKGROUND_RESERVE), capacity - cost));
}

export function planAdmission(request: AdmitRequest, context: PlanContext): AdmissionPlan {
  const { limits } = request;
  const tokens = Math.max(1, Math.ceil(request.estimatedTokens));
  // Under a batch's hold the budget is held already: the request holds no more of it (nothing is left held if its instance dies).
  const micros = request.budgetHeld === true ? 1 : Math.max(1, reserveMicros(request.estimatedCostUsd));
  const keys = rateKeys(context.prefix, request.orgId, request.keyId);
  const plan: AdmissionPlan = { steps: [], requestBuckets: [], tokenBuckets: [], month: null, tokens, micros };
  const bucket = (slots: BucketSlot[], scope: LimitScope, key: string, limit: number | null | undefined, cost: number) => {
    const capacity = capacityOf(limit);
    if (capacity === null) return;
    const step: BucketStep = { kind: 'bucket', key, cost, capacity, refillMs: MINUTE_MS };
    if (request.background) step.reserve = backgroundReserve(capacity, cost);
    slots.push({ index: plan.steps.push(step) - 1, scope, step });
  };
  bucket(plan.requestBuckets, 'organisation', keys.rpm, limits.rpm, 1);
  bucket(plan.requestBuckets, 'API key', keys.keyRpm, limits.keyRpm, 1);
  bucket(plan.tokenBuckets, 'organisation', keys.tpm, limits.tpm, tokens);
  bucket(plan.tokenBuckets, 'API key', keys.keyTpm, limits.keyTpm, tokens);

  if (context.month !== null) {
    const { month, ttlMs } = context.month;
    const names = monthKeys(context.prefix, request.orgId, month.id);
    const budgetMicros = limits.monthlyBudgetUsd == null ? null : spendMicros(Math.max(0, limits.monthlyBudgetUsd));
    const tokenQuota = capacityOf(limits.tokenQuota);
    const counter = (key: string, cost: number, limit: number | null, onMissing: CounterStep['onMissing']) => {
      const step: CounterStep = { kind: 'counter', key, cost, ttlMs, onMissing };
      // A request whose budget was held for it beforehand is counted, never refused.
      if (limit !== null && request.budgetHeld !== true) step.limit = limit;
      return plan.steps.push(step) - 1;
    };
    // A missing spend counter refuses the call: the limiter seeds it from the ledger and retries.
    plan.month = {
      month,
      keys: names,
      ttlMs,
      budgetMicros,
      tokenQuota,
      usd: counter(names.usd, micros, budgetMicros, 'refuse'),
      usdReserved: counter(names.usdReserved, micros, null, 'create'),
      tokens: counter(names.tokens, tokens, tokenQuota, 'refuse'),
      tokensReserved: counter(names.tokensReserved, tokens, null, 'create'),
      key: null,
    };
    if (limits.keyMonthlyBudgetUsd != null) {
      const keyNames = keyMonthKeys(context.prefix, request.orgId, request.keyId, month.id);
      const keyBudget = spendMicros(Math.max(0, limits.keyMonthlyBudgetUsd));
      plan.month.key = {
        keys: keyNames,
        budgetMicros: keyBudget,
        usd: counter(keyNames.usd, micros, keyBudget, 'refuse'),
        usdReserved: counter(keyNames.usdReserved, micros, null, 'create'),
      };
    }
  }
  return plan;
}
