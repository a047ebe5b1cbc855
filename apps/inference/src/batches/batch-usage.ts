import type { AnsweredBatchLine, BatchUsage } from '@svc/db';

/** The non-negative integer at `path` of `value`, else 0. */
function count(value: unknown, ...path: string[]): number {
  let node = value;
  for (const key of path) node = typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[key] : undefined;
  return typeof node === 'number' && Number.isInteger(node) && node > 0 ? node : 0;
}

/** One answer's tokens in the Responses API's names, from a chat completion's, a response's or an embedding list's `usage`. */
function lineUsage(usage: unknown): BatchUsage {
  const input = count(usage, 'input_tokens') || count(usage, 'prompt_tokens');
  const output = count(usage, 'output_tokens') || count(usage, 'completion_tokens');
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: count(usage, 'input_tokens_details', 'cached_tokens') || count(usage, 'prompt_tokens_details', 'cached_tokens') },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: count(usage, 'output_tokens_details', 'reasoning_tokens') || count(usage, 'completion_tokens_details', 'reasoning_tokens') },
    total_tokens: count(usage, 'total_tokens') || input + output,
  };
}

const noUsage = (): BatchUsage => ({ input_tokens: 0, input_tokens_details: { cached_tokens: 0 }, output_tokens: 0, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 0 });

/** OpenAI's batch `usage`: the tokens of the answered lines' bodies (an error body has none), summed, added to `before` when given (a page at a time). */
export function batchUsage(lines: readonly AnsweredBatchLine[], before?: BatchUsage): BatchUsage {
  const sum = before ? structuredClone(before) : noUsage();
  for (const line of lines) {
    const one = lineUsage(bodyUsage(line.result));
    sum.input_tokens += one.input_tokens;
    sum.input_tokens_details.cached_tokens += one.input_tokens_details.cached_tokens;
    sum.output_tokens += one.output_tokens;
    sum.output_tokens_details.reasoning_tokens += one.output_tokens_details.reasoning_tokens;
    sum.total_tokens += one.total_tokens;
  }
  return sum;
}

function bodyUsage(result: Record<string, unknown>): unknown {
  const response = result.response as { body?: { usage?: unknown } } | null | undefined;
  return response?.body?.usage;
}
