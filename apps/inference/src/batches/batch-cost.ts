import type { BatchRecord, UsageRepository } from '@svc/db';

/** What a batch cost so far and what batch prices saved: the `svc_metadata` of a retrieved batch (an svc extension of OpenAI's batch object). */
export interface BatchCost {
  /** Lines billed so far (one ledger row each). */
  billed_lines: number;
  cost_usd: number;
  /** What the billed lines would have cost at interactive prices (a gateway-run line's cost is its interactive price). */
  interactive_cost_usd: number;
  savings_usd: number;
  savings_pct: number;
}

/** A sum of float prices without its rounding noise (`0.30000000000000004`). */
const money = (usd: number) => Math.round(usd * 1e9) / 1e9;

/** The batch's lines in the ledger (its rows' tag `batch_id`, from its creation on), summed. */
export async function batchCost(usage: Pick<UsageRepository, 'byTag'>, batch: Pick<BatchRecord, 'id' | 'orgId' | 'createdAt'>): Promise<BatchCost> {
  const [spend] = await usage.byTag(batch.orgId, 'batch_id', { tag: { key: 'batch_id', value: batch.id }, since: batch.createdAt });
  const cost = money(spend?.costUsd ?? 0);
  const interactive = money(Math.max(spend?.interactiveCostUsd ?? 0, cost));
  const saved = money(interactive - cost);
  return {
    billed_lines: spend?.requests ?? 0,
    cost_usd: cost,
    interactive_cost_usd: interactive,
    savings_usd: saved,
    savings_pct: interactive > 0 ? Math.round((saved / interactive) * 10_000) / 100 : 0,
  };
}
