import type { BatchRepository } from '@svc/db';
import { BATCH_PAGE_LINES } from './finalize-batch.js';
import { messageBatchResult } from './message-batch-object.js';

/** An ended Message Batch's results in file order as JSONL, a page of lines read each time the client takes the previous one. */
export function messageBatchResults(store: BatchRepository, batchId: string): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let after = -1;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const page = await store.linesPage(batchId, { after, limit: BATCH_PAGE_LINES });
      if (page.length > 0) {
        after = page.at(-1)!.line;
        controller.enqueue(encoder.encode(page.map((line) => `${JSON.stringify(messageBatchResult(line))}\n`).join('')));
      }
      if (page.length < BATCH_PAGE_LINES) controller.close();
    },
  });
}
