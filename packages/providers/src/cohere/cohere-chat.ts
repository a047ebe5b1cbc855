import type { ChatResult, ToolCall, Usage } from '@svc/core';
import { type CohereUsage, cohereChatResponseSchema, parseCohereWire } from './cohere-api.js';
import { cohereStreamError } from './cohere-error.js';
import { mapCohereFinishReason } from './map-cohere-finish-reason.js';

/**
 * Converts a non-streaming v2 chat answer: text blocks are concatenated, `thinking` blocks
 * become `reasoning`, `tool_plan` (the text Cohere writes before its tool calls) becomes the
 * content, as other providers' preamble text does. Cohere reports no model name, so the
 * requested one stands in.
 */
export function parseCohereResponse(json: unknown, requestedModel: string): ChatResult {
  const response = parseCohereWire(cohereChatResponseSchema, json, 'response');
  const finishReason = mapCohereFinishReason(response.finish_reason);
  if (finishReason === undefined) throw cohereStreamError(undefined, response.finish_reason ?? undefined);
  let text = '';
  let reasoning = '';
  for (const block of response.message.content ?? []) {
    if (block.type === 'text') text += block.text ?? '';
    else if (block.type === 'thinking') reasoning += block.thinking ?? '';
  }
  const toolCalls = (response.message.tool_calls ?? []).map(
    (call): ToolCall => ({ id: call.id ?? '', name: call.function?.name ?? '', arguments: normaliseArguments(call.function?.arguments) }),
  );
  const plan = response.message.tool_plan ?? '';
  const content = text !== '' ? text : plan !== '' ? plan : null;
  const message: ChatResult['choices'][number]['message'] = { role: 'assistant', content };
  if (toolCalls.length > 0) message.toolCalls = toolCalls;
  if (reasoning !== '') message.reasoning = reasoning;
  const result: ChatResult = { model: requestedModel, choices: [{ index: 0, message, finishReason }] };
  if (response.id != null) result.id = response.id;
  if (response.usage != null) result.usage = mapCohereUsage(response.usage);
  return result;
}

/** Cohere sends `null` (or nothing) as the arguments of a call without parameters; canonical arguments are JSON object text. */
export function normaliseArguments(text: string | null | undefined): string {
  return text == null || text.trim() === '' || text.trim() === 'null' ? '{}' : text;
}

/**
 * Cohere reports two counts: `billed_units` (what the account is charged) and `tokens` (what the
 * model saw, including Cohere's own system preamble, often hundreds of tokens more). The gateway
 * prices usage, so billed units win; `tokens` is the fallback when billing is not reported.
 * Cohere's `cached_tokens` counts against `tokens`, not billed units, so it is not mapped.
 */
export function mapCohereUsage(usage: CohereUsage): Usage {
  const promptTokens = usage.billed_units?.input_tokens ?? usage.tokens?.input_tokens ?? 0;
  const completionTokens = usage.billed_units?.output_tokens ?? usage.tokens?.output_tokens ?? 0;
  return { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens };
}
