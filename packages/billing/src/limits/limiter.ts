import type { GatewayError } from '@svc/core';
import type { ConsumeAllResult, CounterStep, Kv } from '@svc/kv';
import { Adjustments } from './adjustments.js';
import { type AdmissionPlan, capacityOf, planAdmission } from './admission-plan.js';
import { type HeldShare, heldShareSteps } from './held-share.js';
import { type CalendarMonth, monthAt, parseMonth } from './calendar-month.js';
import { type MonthKeys, keyMonthKeys, monthKeys } from './kv-keys.js';
import {
  type AdmitRequest,
  type LedgerMonth,
  type Limits,
  type KeyMonthSpend,
  type MonthSpend,
  checkAmount,
  hasMonthLimits,
  hasRateLimits,
} from './limits.js';
import { spendMicros, toUsd } from './money.js';
import { blockedError, rateLimitHeaders, refusalError } from './rate-limit-response.js';
import { type LimitRefusal, refusalKind } from './refusal.js';
import { KvReservation, type Reservation, type ReservationState, unlimitedReservation } from './reservation.js';

const DAY_MS = 86_400_000;

/** Settings of a {@link Limiter}. */
export interface LimiterSettings {
  /** Shared state: the Redis Kv when instances must agree, the in-process one otherwise. */
  kv: Kv;
  /** Clock in epoch ms that picks the calendar month (UTC). Default `Date.now`. Buckets use the Kv's clock. */
  now?: () => number;
  /** Prefix of every Kv key. Default `limits:`. */
  keyPrefix?: string;
  /**
   * An organisation's spend and tokens in `month` according to the usage ledger (the source of
   * truth), read when the month's counters are missing from the Kv (first request of the month,
   * a flushed Kv). Without it a missing month starts at 0.
   */
  loadMonth?: (orgId: string, month: CalendarMonth) => Promise<LedgerMonth>;
  /** One API key's spend in `month` according to the ledger, read when its budget counter is missing; without it, 0. */
  loadKeyMonth?: (orgId: string, keyId: string, month: CalendarMonth) => Promise<LedgerMonth>;
  /**
   * Receives every failure the limiter absorbed: a Kv or ledger failure during `admit` (the
   * request is then admitted: fail open), or during `charge`/`settle`/`release`.
   */
  onError?: (error: unknown) => void;
  /**
   * Told (synchronously, before the error is thrown) about every refused request: for alerting
   * on refusal spikes. Must return at once and never throw; it runs on the request path.
   */
  onRefusal?: (refusal: LimitRefusal) => void;
  /** How long month counters are kept after their month ends, ms. Default 40 days (last month stays visible). */
  monthRetentionMs?: number;
  /** Month-counter corrections kept for retry while the Kv fails. Default 10 000. */
  maxBacklog?: number;
}

/** The budget fields of an organisation that `spend` reports next to the counters. */
export interface SpendSubject {
  id: string;
  monthlyBudgetUsd: number | null;
  tokenQuota: number | null;
}

/**
 * Per-organisation (and per-key) RPM/TPM limits and monthly budget/token quota over a shared
 * {@link Kv}. One atomic `consumeAll` call admits a request against every limit at once across
 * all instances sharing the Kv; a request without limits costs no Kv call.
 */
export class Limiter {
  private readonly kv: Kv;
  private readonly now: () => number;
  private readonly prefix: string;
  private readonly loadMonth: ((orgId: string, month: CalendarMonth) => Promise<LedgerMonth>) | undefined;
  private readonly loadKeyMonth: ((orgId: string, keyId: string, month: CalendarMonth) => Promise<LedgerMonth>) | undefined;
  private readonly onError: (error: unknown) => void;
  private readonly onRefusal: ((refusal: LimitRefusal) => void) | undefined;
  private readonly retentionMs: number;
  private readonly adjustments: Adjustments;
  private readonly seeding = new Map<string, Promise<void>>();

  constructor(settings: LimiterSettings) {
    this.kv = settings.kv;
    this.now = settings.now ?? Date.now;
    this.prefix = settings.keyPrefix ?? 'limits:';
    this.loadMonth = settings.loadMonth;
    this.loadKeyMonth = settings.loadKeyMonth;
    this.onError = settings.onError ?? (() => {});
    this.onRefusal = settings.onRefusal;
    this.retentionMs = settings.monthRetentionMs ?? 40 * DAY_MS;
    if (!(this.retentionMs > 0)) throw new RangeError(`monthRetentionMs must be positive, got ${this.retentionMs}`);
    this.adjustments = new Adjustments(this.kv, this.onError, settings.maxBacklog ?? 10_000);
  }

  /**
   * Admits a request against its limits, or throws the spec's error: 429 `rate_limit_error` /
   * `rate_limit_exceeded` (with `retry-after` and `x-ratelimit-*`) when a rate limit is
   * reached, 402 `billing_error` / `budget_exceeded` or `quota_exceeded` when the month's
   * budget or token quota cannot cover the estimate (402 wins: waiting does not help). A refused
   * request consumes nothing. When the Kv (or the ledger) fails the request is admitted and
   * the failure goes to `onError`.
   */
  async admit(request: AdmitRequest): Promise<Reservation> {
    const { limits } = request;
    const monthLimited = hasMonthLimits(limits);
    if (!monthLimited && !hasRateLimits(limits)) return unlimitedReservation;
    checkAmount('estimatedTokens', request.estimatedTokens);
    checkAmount('estimatedCostUsd', request.estimatedCostUsd);
    const blocked = blockedBy(limits);
    if (blocked) throw this.refused(request, blocked);

    const month = monthLimited ? this.currentMonth() : null;
    const plan = planAdmission(request, { prefix: this.prefix, month });
    let result: ConsumeAllResult;
    try {
      result = await this.kv.consumeAll(plan.steps);
      const missing = missingCounters(plan, result);
      if (!result.admitted && (missing.org || missing.key) && month !== null) {
        await this.seedFromLedger(request.orgId, month.month, missing.org, missing.key ? request.keyId : undefined);
        result = await this.kv.consumeAll(plan.steps);
      }
    } catch (error) {
      this.onError(error);
      return this.reservation(plan, null);
    }
    if (!result.admitted) {
      const missing = missingCounters(plan, result);
      if (missing.org || missing.key) {
        this.onError(new Error(`limits: the month counters of ${request.orgId} are missing right after seeding`));
        return this.reservation(plan, null);
      }
      throw this.refused(request, refusalError(plan, result));
    }
    this.adjustments.retrySoon();
    return this.reservation(plan, result);
  }

  private refused(request: AdmitRequest, error: GatewayError): GatewayError {
    this.onRefusal?.({ orgId: request.orgId, keyId: request.keyId, kind: refusalKind(error) });
    return error;
  }

  /**
   * An organisation's month (default: the current one): settled and reserved spend and tokens
   * from the Kv, or from the ledger (`loadMonth`) when the Kv has no counters for it (no budget
   * or quota, or no request yet this month). Rejects when the Kv fails.
   */
  async spend(org: SpendSubject, month?: string): Promise<MonthSpend> {
    const calendarMonth = month === undefined ? monthAt(this.now()) : parseMonth(month);
    const keys = monthKeys(this.prefix, org.id, calendarMonth.id);
    const [usd, tokens] = await this.readMonthCounters([
      [keys.usd, keys.usdReserved],
      [keys.tokens, keys.tokensReserved],
    ]);
    const limits = { month: calendarMonth.id, budgetUsd: org.monthlyBudgetUsd, tokenQuota: org.tokenQuota };
    if (!usd && !tokens) {
      const ledger = this.loadMonth === undefined ? { spentUsd: 0, tokens: 0 } : await this.loadMonth(org.id, calendarMonth);
      return { ...limits, spentUsd: ledger.spentUsd, reservedUsd: 0, tokens: ledger.tokens, reservedTokens: 0 };
    }
    return {
      ...limits,
      spentUsd: toUsd(usd?.settled ?? 0),
      reservedUsd: toUsd(usd?.held ?? 0),
      tokens: tokens?.settled ?? 0,
      reservedTokens: tokens?.held ?? 0,
    };
  }

  /**
   * One API key's spend in a month (default: the current one), settled and held by requests in
   * progress, from the Kv or from the ledger (`loadKeyMonth`) when the Kv has no counter for it
   * (the key has no budget, or no request yet this month). Rejects when the Kv fails.
   */
  async keySpend(key: { orgId: string; id: string; monthlyBudgetUsd: number | null }, month?: string): Promise<KeyMonthSpend> {
    const calendarMonth = month === undefined ? monthAt(this.now()) : parseMonth(month);
    const keys = keyMonthKeys(this.prefix, key.orgId, key.id, calendarMonth.id);
    const [usd] = await this.readMonthCounters([[keys.usd, keys.usdReserved]]);
    const base = { month: calendarMonth.id, budgetUsd: key.monthlyBudgetUsd };
    if (!usd) {
      const ledger = this.loadKeyMonth === undefined ? { spentUsd: 0, tokens: 0 } : await this.loadKeyMonth(key.orgId, key.id, calendarMonth);
      return { ...base, spentUsd: ledger.spentUsd, reservedUsd: 0 };
    }
    return { ...base, spentUsd: toUsd(usd.settled), reservedUsd: toUsd(usd.held) };
  }

  /**
   * Reads month counter pairs (the total: settled plus held; the held part) in one Kv call: each
   * pair's settled and held amounts, or null where the total counter is missing.
   */
  private async readMonthCounters(pairs: readonly (readonly [total: string, held: string])[]): Promise<({ settled: number; held: number } | null)[]> {
    const read = (key: string): CounterStep => ({ kind: 'counter', key, cost: 0, onMissing: 'skip' });
    const { steps } = await this.kv.consumeAll(pairs.flatMap(([total, held]) => [read(total), read(held)]));
    return pairs.map((_, i) => {
      const total = steps[2 * i];
      const heldStep = steps[2 * i + 1];
      if (total?.kind !== 'counter' || total.missing) return null;
      const held = Math.max(0, heldStep?.kind === 'counter' ? heldStep.value : 0);
      return { settled: Math.max(0, total.value - held), held };
    });
  }

  /**
   * Starts an organisation's month counters at the ledger's figures, unless they already exist
   * (another instance or an earlier request seeded them, and they have moved on since). Resolves
   * true when it set either. `admit` seeds by itself through `loadMonth`; call this at start-up
   * to pay the ledger query before the first request, or after restoring a flushed Kv.
   */
  async seed(orgId: string, month: string, spentUsd: number, tokens: number): Promise<boolean> {
    const calendarMonth = parseMonth(month);
    const ttlMs = this.monthTtlMs(calendarMonth);
    if (ttlMs <= 0) return false;
    return this.seedCounters(monthKeys(this.prefix, orgId, month), ttlMs, { spentUsd, tokens });
  }

  /** Month-counter corrections waiting for the Kv after it failed (for metrics and tests). */
  get backlog(): number {
    return this.adjustments.backlog;
  }

  private currentMonth(): { month: CalendarMonth; ttlMs: number } {
    const month = monthAt(this.now());
    return { month, ttlMs: this.monthTtlMs(month) };
  }

  private monthTtlMs(month: CalendarMonth): number {
    return month.end.getTime() + this.retentionMs - this.now();
  }

  /**
   * Seeds the missing counters of a month: the organisation's when `org`, the key's budget counter
   * with `keyId`; concurrent admissions of this instance share one ledger read per organisation and per key.
   */
  private async seedFromLedger(orgId: string, month: CalendarMonth, org: boolean, keyId?: string): Promise<void> {
    const ttlMs = this.monthTtlMs(month);
    const once = (id: string, seed: () => Promise<unknown>): Promise<void> => {
      let seeding = this.seeding.get(id);
      if (seeding === undefined) {
        seeding = seed()
          .then(() => {})
          .finally(() => this.seeding.delete(id));
        this.seeding.set(id, seeding);
      }
      return seeding;
    };
    await Promise.all([
      org
        ? once(`${orgId} ${month.id}`, async () => {
            const usage = this.loadMonth === undefined ? { spentUsd: 0, tokens: 0 } : await this.loadMonth(orgId, month);
            await this.seedCounters(monthKeys(this.prefix, orgId, month.id), ttlMs, usage);
          })
        : undefined,
      keyId === undefined
        ? undefined
        : once(`${orgId} ${month.id} ${keyId}`, async () => {
            const usage = this.loadKeyMonth === undefined ? { spentUsd: 0, tokens: 0 } : await this.loadKeyMonth(orgId, keyId, month);
            checkAmount('spentUsd', usage.spentUsd);
            await this.kv.setIfAbsent(keyMonthKeys(this.prefix, orgId, keyId, month.id).usd, String(spendMicros(usage.spentUsd)), { ttlMs });
          }),
    ]);
  }

  private async seedCounters(keys: MonthKeys, ttlMs: number, usage: LedgerMonth): Promise<boolean> {
    checkAmount('spentUsd', usage.spentUsd);
    checkAmount('tokens', usage.tokens);
    const [usd, tokens] = await Promise.all([
      this.kv.setIfAbsent(keys.usd, String(spendMicros(usage.spentUsd)), { ttlMs }),
      this.kv.setIfAbsent(keys.tokens, String(Math.round(usage.tokens)), { ttlMs }),
    ]);
    return usd || tokens;
  }

  /** A reservation stored with `held()`, to settle or release it in another process or later. */
  resume(state: ReservationState): Reservation {
    return new KvReservation(state, this.adjustments);
  }

  /**
   * Gives `share` of a stored reservation back, once: a share given back already (its guard is in
   * the Kv) changes nothing. Rejects when the Kv fails, so the caller gives it back later; the
   * shares and whatever ends the reservation must together come to what it holds.
   */
  async giveBackShare(state: ReservationState, share: HeldShare): Promise<void> {
    checkAmount('tokens', share.tokens);
    checkAmount('micros', share.micros);
    const steps = heldShareSteps(this.prefix, state, share);
    if (steps.length > 0) await this.kv.consumeAll(steps);
  }

  /** The reservation of an admitted plan; without a result (the Kv failed) it holds nothing. */
  private reservation(plan: AdmissionPlan, result: ConsumeAllResult | null): Reservation {
    return new KvReservation(
      {
        tokenBuckets: plan.tokenBuckets.map((slot) => slot.step),
        month: plan.month === null ? null : { keys: plan.month.keys, ttlMs: plan.month.ttlMs, keyKeys: plan.month.key?.keys ?? null },
        tokens: result === null ? 0 : plan.tokens,
        micros: result === null ? 0 : plan.micros,
        headers: result === null ? {} : rateLimitHeaders(plan, result),
      },
      this.adjustments,
    );
  }
}

/** Which month counters the admission found missing: the organisation's, the key's budget counter. */
function missingCounters(plan: AdmissionPlan, result: ConsumeAllResult): { org: boolean; key: boolean } {
  if (plan.month === null) return { org: false, key: false };
  const missing = (index: number | undefined) => {
    const step = index === undefined ? undefined : result.steps[index];
    return step?.kind === 'counter' && step.missing;
  };
  return { org: missing(plan.month.usd) || missing(plan.month.tokens), key: missing(plan.month.key?.usd) };
}

/** A rate limit of 0 refuses everything; a bucket needs a capacity of at least 1, so it never reaches the Kv. */
/** The refusal of a limit set to 0 (nothing may pass), if any. */
function blockedBy(limits: Limits): GatewayError | undefined {
  if (capacityOf(limits.rpm) === 0 || capacityOf(limits.keyRpm) === 0) return blockedError('requests');
  if (capacityOf(limits.tpm) === 0 || capacityOf(limits.keyTpm) === 0) return blockedError('tokens');
  return undefined;
}
