// Plain data, without drizzle-orm: `@svc/db`'s index re-exports it, and the gateway's main thread
// (which never queries on the embedded store) loads the index only (docs/operations.md "Memory budget").

/** OpenAI's batch statuses: validating -> in_progress -> finalizing -> completed, or failed, expired, cancelling -> cancelled. */
export type BatchStatus = 'validating' | 'failed' | 'in_progress' | 'finalizing' | 'completed' | 'expired' | 'cancelling' | 'cancelled';

/** Statuses of a batch whose work is over. */
export const endedBatchStatuses: readonly BatchStatus[] = ['completed', 'failed', 'expired', 'cancelled'];

/** Statuses a worker still has something to do in. */
export const workableBatchStatuses: readonly BatchStatus[] = ['validating', 'in_progress', 'finalizing', 'cancelling'];
