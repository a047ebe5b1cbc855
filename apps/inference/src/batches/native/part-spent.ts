import type { AnsweredBatchLine } from '@svc/db';
import * as v from 'valibot';

const count = v.nullish(v.number());

/** What a recorded native line's stored answer says it cost: its body's `svc_metadata.cost_usd` and usage (chat `total_tokens`, Messages `input_tokens` + `output_tokens`). */
const answeredShape = v.object({
  response: v.nullish(v.object({ body: v.nullish(v.object({ svc_metadata: v.nullish(v.object({ cost_usd: count })), usage: v.nullish(v.object({ total_tokens: count, input_tokens: count, output_tokens: count })) })) })),
});

/** The tokens and cost (0 for a line served with the organisation's own key) a recorded native line was billed. */
export function answeredSpend(line: Pick<AnsweredBatchLine, 'result'>, byok: boolean): { tokens: number; costUsd: number } {
  const parsed = v.safeParse(answeredShape, line.result);
  const body = parsed.success ? parsed.output.response?.body : undefined;
  const usage = body?.usage;
  const tokens = usage?.total_tokens ?? (usage?.input_tokens ?? 0) + (usage?.output_tokens ?? 0);
  return { tokens, costUsd: byok ? 0 : (body?.svc_metadata?.cost_usd ?? 0) };
}
