import type { AnsweredBatchLine, BatchRecord, BatchRepository, BatchStatus } from '@svc/db';
import { type FileSettings, type FileWriter, openFileWriter } from '../files/file-store.js';
import { batchUsage } from './batch-usage.js';

/** How a batch's work ended: every line answered, cancelled, or past its completion window. */
export type BatchEnding = 'completed' | 'cancelled' | 'expired';

const endings: Record<BatchEnding, { from: readonly BatchStatus[]; time: string }> = {
  completed: { from: ['finalizing'], time: 'completed_at' },
  cancelled: { from: ['cancelling'], time: 'cancelled_at' },
  expired: { from: ['in_progress', 'finalizing'], time: 'expired_at' },
};

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** Lines are read and written a page at a time (output files, Message Batch results): never every answer at once. */
export const BATCH_PAGE_LINES = 500;

const isOk = (line: AnsweredBatchLine) => line.statusCode >= 200 && line.statusCode < 300;

/** The JSONL of output lines, in file order. */
const jsonl = (lines: readonly AnsweredBatchLine[]) => new TextEncoder().encode(lines.map((line) => `${JSON.stringify(line.result)}\n`).join(''));

/** The batch's `kind` file (purpose `batch_output`), begun at its first line: none for a batch without such lines. */
function resultFile(files: FileSettings, batch: BatchRecord, kind: 'output' | 'error') {
  let writer: FileWriter | undefined;
  return {
    async write(lines: readonly AnsweredBatchLine[]) {
      if (lines.length === 0) return;
      writer ??= await openFileWriter(files, { orgId: batch.orgId, filename: `${batch.id}_${kind}.jsonl`, purpose: 'batch_output' });
      await writer.write(jsonl(lines));
    },
    finish: async () => (writer ? (await writer.finish()).id : null),
    abort: async () => writer?.abort(),
  };
}

/** Writes the answered lines into the output (2xx) and error files page by page, summing their usage. */
async function writeResults(store: BatchRepository, files: FileSettings, batch: BatchRecord) {
  const output = resultFile(files, batch, 'output');
  const errors = resultFile(files, batch, 'error');
  let usage = batchUsage([]);
  try {
    for (let after = -1; ; ) {
      const page = await store.answeredLines(batch.id, { after, limit: BATCH_PAGE_LINES });
      await output.write(page.filter(isOk));
      await errors.write(page.filter((line) => !isOk(line)));
      usage = batchUsage(page, usage);
      if (page.length < BATCH_PAGE_LINES) break;
      after = page.at(-1)!.line;
    }
    return { outputFileId: await output.finish(), errorFileId: await errors.finish(), usage };
  } catch (error) {
    await Promise.allSettled([output.abort(), errors.abort()]);
    throw error;
  }
}

/**
 * Writes the batch's output file (the 2xx lines) and error file (the others) in OpenAI's line
 * format, a page of lines at a time, sums the lines' tokens into its `usage`, then gives it its
 * final status. A batch that stops here (a crash) is finalized again by the next worker: its
 * files are written again; the first ones are swept (a day later if they were never completed,
 * else when they expire, unreferenced).
 */
export async function finalizeBatch(store: BatchRepository, files: FileSettings, batch: BatchRecord, ending: BatchEnding): Promise<BatchRecord | undefined> {
  const current = ending === 'completed' ? await store.transition(batch.id, ['in_progress', 'finalizing'], { status: 'finalizing', times: { finalizing_at: batch.times.finalizing_at ?? nowSeconds() } }) : batch;
  if (!current) return undefined;
  const { from, time } = endings[ending];
  // Anthropic Message Batches serve their results from the lines themselves, not from files.
  if (batch.endpoint === '/v1/messages') return store.transition(batch.id, from, { status: ending, times: { [time]: nowSeconds() } });
  const results = await writeResults(store, files, batch);
  return store.transition(batch.id, from, { status: ending, times: { [time]: nowSeconds() }, ...results });
}
