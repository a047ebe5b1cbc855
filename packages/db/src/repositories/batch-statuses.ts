// Plain data without drizzle-orm: packages/db/src/index.ts says why.

/** OpenAI's batch statuses: validating -> in_progress -> finalizing -> completed, or failed, expired, cancelling -> cancelled. */
export type BatchStatus = 'validating' | 'failed' | 'in_progress' | 'finalizing' | 'completed' | 'expired' | 'cancelling' | 'cancelled';

/** Statuses of a batch whose work is over. */
export const endedBatchStatuses: readonly BatchStatus[] = ['completed', 'failed', 'expired', 'cancelled'];

/** Statuses a worker still has something to do in. */
export const workableBatchStatuses: readonly BatchStatus[] = ['validating', 'in_progress', 'finalizing', 'cancelling'];
