import type { Caller } from '@svc/core';
import type { BatchHold, BatchRecord, NewBatch } from '@svc/db';
import { BatchEstimate, endBatchHold, takeBatchHold } from '@svc/pipeline';
import type { InferenceDeps } from '../deps.js';

/**
 * Creates a batch holding its lines' estimated cost against the caller's month budgets from now
 * on (docs/operations.md "Batch budget"): a budget that cannot cover it refuses the batch with the
 * limiter's 402 (`budget_exceeded`, `quota_exceeded`) and nothing is created; a batch that could
 * not be written gives its hold back.
 */
export async function createHoldingBatch(deps: Pick<InferenceDeps, 'batches' | 'catalog' | 'limiter'>, caller: Caller, batch: NewBatch, lines: readonly { customId: string; body: Record<string, unknown> }[]): Promise<BatchRecord> {
  let hold: BatchHold | null = null;
  if (lines.length > 0) {
    const estimate = new BatchEstimate(deps, caller, batch.endpoint);
    for (const line of lines) estimate.add(line.body);
    hold = await takeBatchHold(deps.limiter, caller, estimate, lines.length);
  }
  batch.hold = hold;
  try {
    return await deps.batches.create(batch, lines);
  } catch (error) {
    if (hold) await endBatchHold(deps.limiter, batch.id, hold, 0);
    throw error;
  }
}
