import type { ChatMessage, ResponseFormat } from '@svc/core';
import type { VerifyResult } from './types.js';

export interface CorrectionInput {
  /** The conversation the invalid answer replied to, as sent to the model. */
  messages: readonly ChatMessage[];
  /** The model's answer exactly as it came (not the healed text). */
  answer: string;
  /** The stage-3 verdict on that answer. */
  result: VerifyResult;
  format: ResponseFormat;
}

/** Problems listed in the instruction; the rest are counted. */
const maxListed = 20;
/** Schemas up to this JSON length are repeated in the instruction (another model may not get `response_format` natively). */
const maxSchemaChars = 16_384;

/**
 * The follow-up conversation for a re-ask: the original messages, the invalid answer as the
 * assistant's turn, and a user turn that lists each problem (JSON Pointer + what is wrong) and asks
 * for the corrected JSON alone. Send it with the same `response_format`, to the same model
 * (`native`, `schema`) or to another (`cross_model`). Pure: builds messages, calls nothing.
 */
export function buildCorrectionMessages(input: CorrectionInput): ChatMessage[] {
  return [
    ...input.messages,
    { role: 'assistant', content: input.answer },
    { role: 'user', content: correctionInstruction(input.result, input.format) },
  ];
}

/** The correction instruction alone, for callers that assemble the messages themselves. */
export function correctionInstruction(result: VerifyResult, format: ResponseFormat): string {
  const target =
    format.type === 'json_schema' && format.schema
      ? `a JSON value matching the JSON Schema "${format.name}"`
      : 'a single JSON object';
  const listed = result.issues.slice(0, maxListed).map((issue) => `- ${issue.path || '(root)'}: ${issue.message}`);
  const more = result.issues.length - listed.length;
  if (more > 0) listed.push(`- and ${more} more`);
  const lines = [
    `Your previous reply is not valid: the reply must be ${target}.`,
    'Problems found:',
    ...listed,
  ];
  if (result.issues.some((issue) => issue.keyword === 'truncated')) {
    lines.push('Your reply was cut off before the JSON was complete: keep it shorter so it fits.');
  }
  const schema = format.type === 'json_schema' && format.schema ? JSON.stringify(format.schema) : undefined;
  lines.push(
    'Reply again with only the corrected JSON: no markdown code fences, no text before or after it.',
    schema
      ? 'Keep what you meant and fix only the problems listed. Do not invent values you do not know; use null only where the schema allows it.'
      : 'Keep what you meant and fix only the problems listed. Do not invent values you do not know.',
  );
  if (schema && schema.length <= maxSchemaChars) lines.push('The JSON Schema:', schema);
  return lines.join('\n');
}
