import type { AnswerContext } from './answer.js';
import { asArray, asRecord, asString } from './json.js';

/** The name of the gateway's pairwise verdict format (`@svc/judging`'s VERDICT_SCHEMA_NAME). */
const VERDICT_SCHEMA = 'pairwise_verdict';

/** The text of every message of an OpenAI chat body, joined. */
function bodyText(body: Record<string, unknown>): string {
  return (asArray(body['messages']) ?? []).map((message) => asString(asRecord(message)?.['content']) ?? '').join('\n');
}

/**
 * The verdict of a pairwise judging request, or undefined when `body` is not one: the answer
 * (between `[Answer A]` and `[Answer B]`, or after `[Answer B]`) that contains `prefers` wins;
 * both or neither: tie; no `prefers`: always A.
 */
export function judgeVerdict(body: Record<string, unknown>, prefers: string | undefined): string | undefined {
  const format = asRecord(body['response_format']);
  if (asString(asRecord(format?.['json_schema'])?.['name']) !== VERDICT_SCHEMA) return undefined;
  if (prefers === undefined) return '{"winner":"A"}';
  const text = bodyText(body);
  const a = text.indexOf('[Answer A]');
  const b = text.indexOf('[Answer B]');
  const end = text.indexOf('[End of answers]');
  const inA = a >= 0 && b > a && text.slice(a, b).includes(prefers);
  const inB = b >= 0 && text.slice(b, end > b ? end : undefined).includes(prefers);
  return `{"winner":"${inA === inB ? 'tie' : inA ? 'A' : 'B'}"}`;
}

/** The text OpenAI chat answers `model` with, when the mock was given one for it (or it judges). */
export function scriptedAnswer(body: Record<string, unknown>, model: string, ctx: Pick<AnswerContext, 'answers' | 'judgePrefers' | 'script'>): string | undefined {
  return ctx.script?.(body, model) ?? judgeVerdict(body, ctx.judgePrefers) ?? ctx.answers?.[model];
}
