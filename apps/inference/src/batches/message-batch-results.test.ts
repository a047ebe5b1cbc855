import type { BatchRepository } from '@svc/db';
import { describe, expect, it } from 'vitest';
import { BATCH_PAGE_LINES } from './finalize-batch.js';
import { messageBatchResults } from './message-batch-results.js';

/** A batch of `count` lines, the odd ones unanswered, served by pages; records each page asked. */
function storeOf(count: number) {
  const asked: { after: number; limit: number }[] = [];
  const linesPage: BatchRepository['linesPage'] = async (_id, page) => {
    asked.push(page);
    const lines = Array.from({ length: count }, (_, line) => line).filter((line) => line > page.after).slice(0, page.limit);
    return lines.map((line) => (line % 2 === 1 ? { line, customId: `c${line}` } : { line, customId: `c${line}`, statusCode: 200, result: { response: { status_code: 200, request_id: 'r', body: { id: `msg_${line}` } } } }));
  };
  return { store: { linesPage } as BatchRepository, asked };
}

describe('messageBatchResults', () => {
  it.each([0, 3, BATCH_PAGE_LINES, 2 * BATCH_PAGE_LINES + 201])('sends %i lines in order, a page read at a time', async (count) => {
    const { store, asked } = storeOf(count);
    const text = await new Response(messageBatchResults(store, 'msgbatch_x')).text();
    const results = text.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as { custom_id: string; result: { type: string } });
    expect(results.map((result) => result.custom_id)).toEqual(Array.from({ length: count }, (_, line) => `c${line}`));
    expect(results.map((result) => result.result.type)).toEqual(Array.from({ length: count }, (_, line) => (line % 2 === 1 ? 'canceled' : 'succeeded')));
    expect(asked.every((page) => page.limit === BATCH_PAGE_LINES)).toBe(true);
    expect(asked.length).toBe(Math.floor(count / BATCH_PAGE_LINES) + 1);
  });
});
