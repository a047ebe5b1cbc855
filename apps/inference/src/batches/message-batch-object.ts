import type { AnsweredBatchLine, BatchLineRecord, BatchRecord } from '@svc/db';
import { anthropicErrorType } from '@svc/protocol';
import { unixSeconds } from '../files/file-object.js';

const endedStatuses: readonly string[] = ['completed', 'cancelled', 'expired', 'failed'];

export const isEnded = (batch: BatchRecord): boolean => endedStatuses.includes(batch.status);

/** Unix seconds as RFC 3339, or null (every time of the object is to the second, as the stored status times are). */
const iso = (seconds: number | undefined) => (seconds === undefined ? null : new Date(seconds * 1000).toISOString());

/** A line answered `batch_expired` (no HTTP answer) records status 0. */
export const EXPIRED_STATUS = 0;

/** Anthropic's Message Batch object of a stored batch; `expired` counts its lines that expired. */
export function messageBatchObject(batch: BatchRecord, resultsUrl: string, expired: number) {
  const ended = isEnded(batch);
  const unanswered = batch.total - batch.completed - batch.failed;
  const { times } = batch;
  return {
    id: batch.id,
    type: 'message_batch' as const,
    processing_status: ended ? 'ended' : batch.status === 'cancelling' ? 'canceling' : 'in_progress',
    request_counts: {
      processing: ended ? 0 : unanswered,
      succeeded: batch.completed,
      errored: batch.failed - expired,
      canceled: ended ? unanswered : 0,
      expired,
    },
    ended_at: iso(times.completed_at ?? times.cancelled_at ?? times.expired_at ?? times.failed_at),
    created_at: iso(unixSeconds(batch.createdAt)),
    expires_at: iso(unixSeconds(batch.expiresAt)),
    archived_at: null,
    cancel_initiated_at: iso(times.cancelling_at),
    results_url: ended ? resultsUrl : null,
  };
}

interface ErrorBody {
  error?: { message?: string };
}

/** One line of a Message Batch's results: `{custom_id, result: {type: succeeded|errored|canceled|expired, ...}}`. */
export function messageBatchResult(line: AnsweredBatchLine | Pick<BatchLineRecord, 'line' | 'customId'>): object {
  if (!('result' in line)) return { custom_id: line.customId, result: { type: 'canceled' } };
  if (line.statusCode === EXPIRED_STATUS) return { custom_id: line.customId, result: { type: 'expired' } };
  const response = line.result.response as { status_code: number; request_id: string; body: object };
  if (line.statusCode >= 200 && line.statusCode < 300) return { custom_id: line.customId, result: { type: 'succeeded', message: response.body } };
  const message = (response.body as ErrorBody).error?.message ?? 'The request failed.';
  return { custom_id: line.customId, result: { type: 'errored', error: { type: 'error', error: { type: anthropicErrorType(line.statusCode), message }, request_id: response.request_id } } };
}
