import type { BucketStep, ConsumeStep } from '@svc/kv';
import type { Adjustments } from './adjustments.js';
import type { KeyMonthKeys, MonthKeys } from './kv-keys.js';
import { type ActualUsage, checkAmount } from './limits.js';
import { reserveMicros, spendMicros } from './money.js';

/**
 * What an admitted request holds: its request counted, its estimated tokens taken from the TPM
 * buckets, and its estimated tokens and cost held against the month's quota and budget. Exactly
 * one of `settle` or `release` ends it; later calls do nothing. None of the methods rejects on
 * a Kv failure (failures go to the limiter's `onError`); they reject only on invalid arguments.
 */
export interface Reservation {
  /** `x-ratelimit-*` headers for the response; empty without rate limits or when the Kv failed. */
  readonly headers: Readonly<Record<string, string>>;
  /**
   * Counts `tokens` (and `costUsd`) produced so far by a stream. Within the reservation this is
   * bookkeeping only; beyond it, the excess is charged at once to the TPM buckets and the month
   * counters (never refused: the answer is already on its way).
   */
  charge(tokens: number, costUsd?: number): Promise<void>;
  /**
   * Ends the request with what it really used: the TPM buckets and month counters move from the
   * estimate (or what `charge` counted) to the actual usage, giving back what was not used.
   */
  settle(usage: ActualUsage): Promise<void>;
  /** Ends a request that failed: returns everything except the request count (and what `charge` counted). */
  release(): Promise<void>;
  /**
   * What the reservation holds, as plain data, so a process that outlives no request (a native
   * batch polled for hours) can store it and end it later (`Limiter.resume`); undefined when it
   * holds nothing or was charged since (only a fresh reservation can be stored).
   */
  held?(): ReservationState | undefined;
}

/** The reservation of a request no limit applies to: no state, nothing to write. */
export const unlimitedReservation: Reservation = Object.freeze({
  headers: Object.freeze({}),
  charge: async () => {},
  settle: async () => {},
  release: async () => {},
});

export interface ReservationState {
  /** The TPM buckets the request took its tokens from (their `cost` is ignored). */
  tokenBuckets: readonly BucketStep[];
  /** The month counters, and the expiry they get when a correction creates them. */
  month: { keys: MonthKeys; ttlMs: number; keyKeys: KeyMonthKeys | null } | null;
  /** Tokens and micro-USD the Kv holds for this request (0 when admitted without the Kv). */
  tokens: number;
  micros: number;
  headers: Record<string, string>;
}

export class KvReservation implements Reservation {
  readonly headers: Readonly<Record<string, string>>;
  /** Tokens and micro-USD written to the Kv so far: the reservation, then any excess charged. */
  private countedTokens: number;
  private countedMicros: number;
  private chargedTokens = 0;
  private chargedUsd = 0;
  private ended = false;
  /** Corrections not yet written, and the chain that writes them in order, one call at a time. */
  private pendingTokens = 0;
  private pendingMicros = 0;
  private releaseHeld = false;
  private queued = false;
  private tail: Promise<void> = Promise.resolve();

  constructor(
    private readonly state: ReservationState,
    private readonly adjustments: Adjustments,
  ) {
    this.headers = state.headers;
    this.countedTokens = state.tokens;
    this.countedMicros = state.micros;
  }

  held(): ReservationState | undefined {
    if (this.ended || this.chargedTokens > 0 || this.chargedUsd > 0) return undefined;
    return this.state.month === null && this.state.tokenBuckets.length === 0 ? undefined : structuredClone(this.state);
  }

  async charge(tokens: number, costUsd = 0): Promise<void> {
    checkAmount('tokens', tokens);
    checkAmount('costUsd', costUsd);
    if (this.ended) return;
    this.chargedTokens += tokens;
    this.chargedUsd += costUsd;
    const extraTokens = Math.max(0, Math.ceil(this.chargedTokens) - this.countedTokens);
    const extraMicros = Math.max(0, reserveMicros(this.chargedUsd) - this.countedMicros);
    if (extraTokens === 0 && extraMicros === 0) return;
    return this.correct(extraTokens, extraMicros, false);
  }

  async settle(usage: ActualUsage): Promise<void> {
    checkAmount('actualTokens', usage.actualTokens);
    checkAmount('actualCostUsd', usage.actualCostUsd);
    return this.end(Math.ceil(usage.actualTokens), spendMicros(usage.actualCostUsd));
  }

  async release(): Promise<void> {
    return this.end(Math.ceil(this.chargedTokens), spendMicros(this.chargedUsd));
  }

  private end(tokens: number, micros: number): Promise<void> {
    if (this.ended) return Promise.resolve();
    this.ended = true;
    return this.correct(tokens - this.countedTokens, micros - this.countedMicros, true);
  }

  private correct(tokens: number, micros: number, releaseHeld: boolean): Promise<void> {
    this.countedTokens += tokens;
    this.countedMicros += micros;
    this.pendingTokens += tokens;
    this.pendingMicros += micros;
    this.releaseHeld ||= releaseHeld;
    if (!this.queued) {
      this.queued = true;
      this.tail = this.tail.then(() => this.write());
    }
    return this.tail;
  }

  private write(): Promise<void> {
    const tokens = this.pendingTokens;
    const micros = this.pendingMicros;
    const releaseHeld = this.releaseHeld;
    this.pendingTokens = 0;
    this.pendingMicros = 0;
    this.releaseHeld = false;
    this.queued = false;
    const steps: ConsumeStep[] = [];
    if (tokens !== 0) {
      for (const bucket of this.state.tokenBuckets) steps.push({ ...bucket, cost: tokens, force: true });
    }
    const month = this.state.month;
    if (month !== null) {
      const counter = (key: string, cost: number) => {
        // A missing counter is left missing: it is seeded from the ledger, which has this usage.
        if (cost !== 0) steps.push({ kind: 'counter', key, cost, ttlMs: month.ttlMs, onMissing: 'skip' });
      };
      counter(month.keys.usd, micros);
      counter(month.keys.tokens, tokens);
      if (month.keyKeys) counter(month.keyKeys.usd, micros);
      if (releaseHeld) {
        counter(month.keys.usdReserved, -this.state.micros);
        counter(month.keys.tokensReserved, -this.state.tokens);
        if (month.keyKeys) counter(month.keyKeys.usdReserved, -this.state.micros);
      }
    }
    return this.adjustments.apply(steps);
  }
}
