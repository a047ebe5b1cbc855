import { describe, expect, it } from 'vitest';
import { batchUsage } from './batch-usage.js';

const answered = (line: number, statusCode: number, body: object) => ({ line, customId: `c${line}`, statusCode, result: { id: `batch_req_${line}`, custom_id: `c${line}`, response: { status_code: statusCode, request_id: 'req', body }, error: null } });

describe('batchUsage', () => {
  it('sums chat, responses and embeddings usage in the Responses API names; error bodies count nothing', () => {
    const usage = batchUsage([
      answered(0, 200, { usage: { prompt_tokens: 10, completion_tokens: 4, total_tokens: 14, prompt_tokens_details: { cached_tokens: 6 }, completion_tokens_details: { reasoning_tokens: 2 } } }),
      answered(1, 200, { usage: { input_tokens: 7, output_tokens: 3, total_tokens: 10, input_tokens_details: { cached_tokens: 1 }, output_tokens_details: { reasoning_tokens: 1 } } }),
      answered(2, 200, { usage: { prompt_tokens: 5, total_tokens: 5 } }),
      answered(3, 400, { error: { message: 'bad', type: 'invalid_request_error' } }),
    ]);
    expect(usage).toEqual({ input_tokens: 22, input_tokens_details: { cached_tokens: 7 }, output_tokens: 7, output_tokens_details: { reasoning_tokens: 3 }, total_tokens: 29 });
  });

  it('is all zeros for no lines, and ignores values that are not counts', () => {
    expect(batchUsage([]).total_tokens).toBe(0);
    expect(batchUsage([answered(0, 200, { usage: { prompt_tokens: -3, completion_tokens: 'x' } })])).toMatchObject({ input_tokens: 0, output_tokens: 0, total_tokens: 0 });
  });
});
