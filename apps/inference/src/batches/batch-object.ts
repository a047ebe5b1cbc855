import type { BatchRecord } from '@svc/db';
import { unixSeconds } from '../files/file-object.js';

const statusTimes = ['in_progress_at', 'finalizing_at', 'completed_at', 'failed_at', 'expired_at', 'cancelling_at', 'cancelled_at'] as const;

/** OpenAI's batch object (`object: "batch"`) of a stored batch. */
export function batchObject(batch: BatchRecord) {
  const times = Object.fromEntries(statusTimes.map((name) => [name, batch.times[name] ?? null]));
  return {
    id: batch.id,
    object: 'batch' as const,
    endpoint: batch.endpoint,
    errors: batch.errors ? { object: 'list', data: batch.errors } : null,
    input_file_id: batch.inputFileId,
    completion_window: batch.completionWindow,
    status: batch.status,
    output_file_id: batch.outputFileId,
    error_file_id: batch.errorFileId,
    created_at: unixSeconds(batch.createdAt),
    expires_at: unixSeconds(batch.expiresAt),
    ...times,
    request_counts: { total: batch.total, completed: batch.completed, failed: batch.failed },
    // Summed when the batch ends; OpenAI also leaves it out before then.
    ...(batch.usage ? { usage: batch.usage } : {}),
    metadata: batch.metadata,
  };
}
