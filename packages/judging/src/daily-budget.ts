import type { Kv } from '@svc/kv';

const DAY_MS = 86_400_000;
/** The counter's unit: a millionth of a dollar. */
const MICRO_USD = 1_000_000;

/**
 * An organisation's shadow-judging spend per UTC day, shared by every instance through the kv:
 * each judged pair reserves its most possible cost (its calls' prompts and `max_tokens` at the
 * models' prices) before its first call, and runs only when the day's reservations stay within the budget
 * (`consumeWindow`, atomic across instances). Reservations are not refunded, so the day's
 * spend never passes the budget; what the calls really cost is in the ledger.
 */
export class DailyShadowBudget {
  constructor(
    private readonly kv: Pick<Kv, 'consumeWindow'>,
    private readonly now: () => number = Date.now,
  ) {}

  /** Reserves `usd` of the organisation's day; false when it would pass `limitUsd`. */
  async reserve(orgId: string, usd: number, limitUsd: number): Promise<boolean> {
    const day = new Date(this.now()).toISOString().slice(0, 10);
    const cost = Math.max(1, Math.ceil(usd * MICRO_USD));
    const limit = Math.floor(limitUsd * MICRO_USD);
    const result = await this.kv.consumeWindow(`svc:shadow:budget:${orgId}:${day}`, cost, limit, DAY_MS);
    return result.admitted;
  }
}
