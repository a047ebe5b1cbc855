import type { AnsweredBatchLine, BatchRecord, BatchRepository, BatchStatus } from '@svc/db';
import { type FileSettings, keepFile } from '../files/file-store.js';
import { batchUsage } from './batch-usage.js';

/** How a batch's work ended: every line answered, cancelled, or past its completion window. */
export type BatchEnding = 'completed' | 'cancelled' | 'expired';

const endings: Record<BatchEnding, { from: readonly BatchStatus[]; time: string }> = {
  completed: { from: ['finalizing'], time: 'completed_at' },
  cancelled: { from: ['cancelling'], time: 'cancelled_at' },
  expired: { from: ['in_progress', 'finalizing'], time: 'expired_at' },
};

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** The JSONL of output lines, in file order. */
const jsonl = (lines: readonly AnsweredBatchLine[]) => new TextEncoder().encode(lines.map((line) => `${JSON.stringify(line.result)}\n`).join(''));

/** Keeps `lines` as the batch's `kind` file (purpose `batch_output`), or nothing when there are none. */
async function keepLines(files: FileSettings, batch: BatchRecord, kind: 'output' | 'error', lines: readonly AnsweredBatchLine[]): Promise<string | null> {
  if (lines.length === 0) return null;
  const file = await keepFile(files, { orgId: batch.orgId, filename: `${batch.id}_${kind}.jsonl`, purpose: 'batch_output', content: jsonl(lines) });
  return file.id;
}

/**
 * Writes the batch's output file (the 2xx lines) and error file (the others) in OpenAI's line
 * format, sums the lines' tokens into its `usage`, then gives it its final status. A batch that stops here (a crash) is finalized again
 * by the next worker: its files are written again and the first ones expire unreferenced.
 */
export async function finalizeBatch(store: BatchRepository, files: FileSettings, batch: BatchRecord, ending: BatchEnding): Promise<BatchRecord | undefined> {
  const current = ending === 'completed' ? await store.transition(batch.id, ['in_progress', 'finalizing'], { status: 'finalizing', times: { finalizing_at: batch.times.finalizing_at ?? nowSeconds() } }) : batch;
  if (!current) return undefined;
  const { from, time } = endings[ending];
  // Anthropic Message Batches serve their results from the lines themselves, not from files.
  if (batch.endpoint === '/v1/messages') return store.transition(batch.id, from, { status: ending, times: { [time]: nowSeconds() } });
  const answered = await store.answeredLines(batch.id);
  const isOk = (line: AnsweredBatchLine) => line.statusCode >= 200 && line.statusCode < 300;
  const outputFileId = await keepLines(files, batch, 'output', answered.filter(isOk));
  const errorFileId = await keepLines(files, batch, 'error', answered.filter((line) => !isOk(line)));
  return store.transition(batch.id, from, { status: ending, times: { [time]: nowSeconds() }, outputFileId, errorFileId, usage: batchUsage(answered) });
}
